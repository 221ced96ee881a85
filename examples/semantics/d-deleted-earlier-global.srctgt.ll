; CLASS: d
; EXPECT: preserved
; GlobalDCE deletes an unused global declared before the one the kernel
; writes: objects are named by what they are, never by their position, so
; no address moves.
@unused = addrspace(1) global [16 x i32] zeroinitializer ; only: src
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(1) %p
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(1) %p
  ret void
}
