; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of @buf, x are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine decides the pair.)
; EXPECT-smt: inconclusive
; (Under --engine smt: the product compares every load, and the programs
; differ only in a load whose value the target forwards, so it hands the
; pair to the explicit engine, whose domains are inexact as above.)
; GVN forwards a thread's own store to its load in the same barrier phase:
; the value the load read is the value stored.
@buf = addrspace(3) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote(i32) #0

define void @src(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %x, ptr addrspace(3) %p
  %v = load i32, ptr addrspace(3) %p
  call void @vote(i32 %v)
  ret void
}

define void @tgt(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %x, ptr addrspace(3) %p
  call void @vote(i32 %x)
  ret void
}

attributes #0 = { convergent nounwind }
