; CLASS: d
; EXPECT: violated
; EXPECT-MESSAGE: store @in
; The target writes @in instead of @out, with the two declarations swapped
; (preserved when a global was its position in the module).
@out = addrspace(1) global [64 x i32] zeroinitializer ; only: src
@in = addrspace(1) global [64 x i32] zeroinitializer
@out = addrspace(1) global [64 x i32] zeroinitializer ; only: tgt
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 1, ptr addrspace(1) %p
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @in, i32 0, i32 %tid
  store i32 1, ptr addrspace(1) %p
  ret void
}
