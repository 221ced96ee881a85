; CLASS: e
; EXPECT: preserved
; A `memset` of a poison byte to global memory stores poison, observed:
; the model's undefined behaviour for a poison value stored, so where %c
; holds the reference constrains nothing, and elsewhere it stores 0: a
; target that always stores 0 is as defined.
@out = addrspace(1) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)

define void @src(i1 %c) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %b = select i1 %c, i8 poison, i8 0
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 4 %d, i8 %b, i64 4, i1 false)
  ret void
}

define void @tgt(i1 %c) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 0, ptr addrspace(1) %d, align 4
  ret void
}
