; PIPELINE: loop-unroll
; OPT: opt-22 (opt-19 leaves the loop alone: peeling the last iteration is new in LLVM 21, PR #139551)
; EXPECT-opt-19: proved
; EXPECT: violated
;
; LoopPeel peels the LAST iteration of a loop whose trip count is per-thread,
; although the loop calls a convergent function. `if (i == n - 1)` in the body
; makes countToEliminateCompares choose PeelLast; nothing in LoopUnroll's
; peeling path looks at `convergent`. Also at -O3 with -mtriple=nvptx64-nvidia-cuda
; or amdgcn-amd-amdhsa (two calls of @sync after default<O3>).
;
;   for (i = 0; i != n; i++) { sync(); if (i == n - 1) use(i); }   (n > 1)
;
; A thread with n = 2 runs its iteration 2 in the peeled copy, a thread with
; n = 3 runs its iteration 2 in the loop: the second sync() of the two threads,
; converged before (same iteration of the same loop), is now two operations.
;
;   convergence at `sync`: (occurrence 2 in tid 0, 2 in tid 1) is converged in
;   the reference but not converged in the target
;   scenario (N=2): tid 0: n=2   tid 1: n=3
;   reference (CFG level)                target (after LoopUnrollPass)
;   |       | 1     | 2     | 3     |    |       | 1     | 2     | 3     |
;   | tid 0 | sync1 | sync3 |       |    | tid 0 | sync1 |       | sync3 |
;   | tid 1 | sync2 | sync4 | sync5 |    | tid 1 | sync2 | sync4 | sync5 |

declare void @sync() convergent nounwind
declare void @use(i32) nounwind

define void @peel_last(i32 %n) {
entry:
  %c0 = icmp ugt i32 %n, 1
  br i1 %c0, label %ph, label %exit

ph:
  %nm1 = add i32 %n, -1
  br label %loop

loop:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
  call void @sync()
  %last = icmp eq i32 %i, %nm1
  br i1 %last, label %then, label %latch

then:
  call void @use(i32 %i)
  br label %latch

latch:
  %i.next = add nuw i32 %i, 1
  %c = icmp eq i32 %i.next, %n
  br i1 %c, label %exit, label %loop

exit:
  ret void
}
