; CLASS: c
; EXPECT: violated
; The target sets every byte to 2 where the reference sets it to 1.
@out = addrspace(1) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 4 %d, i8 1, i64 4, i1 false)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 4 %d, i8 2, i64 4, i1 false)
  ret void
}
