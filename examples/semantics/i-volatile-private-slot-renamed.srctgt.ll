; CLASS: i
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the slots' values are
; inexact, since they reach a stored value; the product decides the pair.)
; Volatile accesses of a private slot are observed with their offset in
; the slot, their width and the stored value, not with the slot's name: a
; pass that renames the alloca (SROA's `%slot.sroa.0`) and keeps every
; volatile access changes nothing; the value read back is the value stored.
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %slot = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = getelementptr [2 x i32], ptr %slot, i32 0, i32 1
  store volatile i32 %tid, ptr %e, align 4
  %v = load volatile i32, ptr %e, align 4
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}

define void @tgt() {
entry:
  %slot.sroa.1 = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = getelementptr [2 x i32], ptr %slot.sroa.1, i32 0, i32 1
  store volatile i32 %tid, ptr %e, align 4
  %v = load volatile i32, ptr %e, align 4
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}
