; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of @in, whose value is stored is inexact
; (class m), so the values tried may miss one that matters; the default
; engine and the product decide the pair.)
; `llvm.memcpy` of a constant length is the loads and stores it stands
; for, in chunks of 8, 4, 2 and 1 bytes: InstCombine's `load i32` and
; `store i32` for a copy of 4 bytes are the same accesses (before: the
; function was outside the model).
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
  %v = load i32, ptr addrspace(3) %s, align 4
  store i32 %v, ptr addrspace(1) %d, align 4
  ret void
}
