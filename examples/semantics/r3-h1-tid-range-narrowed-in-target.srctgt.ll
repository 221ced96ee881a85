; CLASS: f
; EXPECT: violated
; A thread index call with `noundef range(i32 0, 2)` in the target only
; (review3 H1): tid 5 is poison there, and with `noundef` undefined
; behaviour; the reference stores 5.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %t, ptr addrspace(1) %p
  ret void
}

define void @tgt() {
entry:
  %t = call noundef range(i32 0, 2) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %t, ptr addrspace(1) %p
  ret void
}
