; CLASS: e
; EXPECT: violated
; The converse of memset-poison-byte-in-source: the target sets poison
; bytes where the reference stores 0, less defined.
@out = addrspace(1) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 0, ptr addrspace(1) %d, align 4
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 4 %d, i8 poison, i64 4, i1 false)
  ret void
}
