; PIPELINE: loop-vectorize
; OPT: opt-22 (and opt-19)
; EXPECT-opt-19: violated
; ARGS: --opt-arg=-force-vector-width=1 --opt-arg=-force-vector-interleave=2 --threads 2 --max-iters 6 --engine explicit
; EXPECT: violated
;
; LoopVectorize interleaves (or vectorizes) a loop whose trip count is per-thread
; although the loop calls a convergent function, and leaves the last
; iterations to a scalar remainder loop chosen by `n`. The call is accepted
; because it has a vector variant (`vector-function-abi-variant`, e.g. from
; `#pragma omp declare simd`); legality looks at convergence only through
; LoopAccessInfo::hasConvergentOp(), which forbids runtime alias checks but not
; the remainder, the same remainder LoopUnroll refuses for convergent loops.
; Without the two -force options opt-22 vectorizes it by 4 on
; -mtriple=x86_64-unknown-linux-gnu (same remainder, with vectors convcheck
; does not model); on the nvptx64 and amdgcn triples it leaves the loop alone.
;
;   s = 0; for (i = 0; i < n; i++) s += vote(i);   return s;
;
; A thread with n = 1 calls vote() in the remainder loop, one with n = 2 in
; the interleaved body: their first vote(), converged before, is now two
; operations.
;
;   convergence at `vote`: (occurrence 1 in tid 0, 1 in tid 1) is converged in
;   the reference but not converged in the target
;   scenario (N=2): tid 0: n=1   tid 1: n=2
;   reference (CFG level)        target (after LoopVectorizePass)
;   |       | 1     | 2     |    |       | 1     | 2     | 3     |
;   | tid 0 | vote1 |       |    | tid 0 |       |       | vote1 |
;   | tid 1 | vote2 | vote3 |    | tid 1 | vote2 | vote3 |       |

declare i32 @vote(i32) #0
declare <4 x i32> @vote_v4(<4 x i32>) #0

define i32 @lv(i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %v = call i32 @vote(i32 %i) #1
  %s.next = add i32 %s, %v
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  %r = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  ret i32 %r
}

attributes #0 = { convergent nounwind willreturn memory(none) }
attributes #1 = { convergent "vector-function-abi-variant"="_ZGV_LLVM_N4v_vote(vote_v4)" }
