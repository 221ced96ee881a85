; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of atomicrmw fmax @best, x are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; The result of `atomicrmw fmax` is a free float (NaNs included), compared
; with `fcmp`: `olt` swapped for `ogt` with the operands swapped is the
; same comparison for every float, and decides a ballot.
target triple = "nvptx64-nvidia-cuda"
@best = addrspace(1) global float 0.0

declare i32 @__ballot_sync(i32, i32) convergent

define i32 @src(float %x) {
entry:
  %old = atomicrmw fmax ptr addrspace(1) @best, float %x monotonic, align 4
  %raised = fcmp olt float %old, %x
  %b = zext i1 %raised to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %b)
  ret i32 %who
}

define i32 @tgt(float %x) {
entry:
  %old = atomicrmw fmax ptr addrspace(1) @best, float %x monotonic, align 4
  %raised = fcmp ogt float %x, %old
  %b = zext i1 %raised to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %b)
  ret i32 %who
}
