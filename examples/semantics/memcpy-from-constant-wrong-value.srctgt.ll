; CLASS: c
; EXPECT: violated
; As memcpy-from-constant-folded, with the halves swapped in the target.
@table = internal addrspace(4) constant [2 x i32] [i32 1, i32 2]
@out = addrspace(1) global [64 x i64] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.memcpy.p1.p4.i64(ptr addrspace(1), ptr addrspace(4), i64, i1)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = getelementptr [64 x i64], ptr addrspace(1) @out, i32 0, i32 %tid
  call void @llvm.memcpy.p1.p4.i64(ptr addrspace(1) align 8 %d, ptr addrspace(4) align 4 @table, i64 8, i1 false)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = getelementptr [64 x i64], ptr addrspace(1) @out, i32 0, i32 %tid
  store i64 4294967298, ptr addrspace(1) %d, align 8
  ret void
}
