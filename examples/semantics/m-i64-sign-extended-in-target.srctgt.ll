; CLASS: m
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of llvm.nvvm.vote.ballot.sync are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; The same comparison where the target's narrowing is exact: `v` is an
; i32 sign-extended to i64, compared at 64 bits in the reference and as
; the i32 in the target (what InstCombine does). No value tells them apart.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0
attributes #0 = { convergent nounwind }

define void @src(ptr addrspace(1) %out, i32 %v) {
entry:
  %w = sext i32 %v to i64
  %c = icmp eq i64 %w, 5
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  store i32 %b, ptr addrspace(1) %out
  ret void
}

define void @tgt(ptr addrspace(1) %out, i32 %v) {
entry:
  %c = icmp eq i32 %v, 5
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  store i32 %b, ptr addrspace(1) %out
  ret void
}
