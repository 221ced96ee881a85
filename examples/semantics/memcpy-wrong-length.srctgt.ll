; CLASS: c
; EXPECT: violated
; The target copies 2 bytes where the reference copies 4: the upper half
; of the element is not written.
@in = addrspace(3) global [64 x i32] undef
@out = addrspace(1) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.memcpy.p1.p3.i64(ptr addrspace(1), ptr addrspace(3), i64, i1)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s = getelementptr [64 x i32], ptr addrspace(3) @in, i32 0, i32 %tid
  %d = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  call void @llvm.memcpy.p1.p3.i64(ptr addrspace(1) align 4 %d, ptr addrspace(3) align 4 %s, i64 4, i1 false)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s = getelementptr [64 x i32], ptr addrspace(3) @in, i32 0, i32 %tid
  %d = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  call void @llvm.memcpy.p1.p3.i64(ptr addrspace(1) align 4 %d, ptr addrspace(3) align 4 %s, i64 2, i1 false)
  ret void
}
