; PIPELINE: irce
; OPT: opt-22 (and opt-19)
; EXPECT-opt-19: violated
; ARGS: --threads 2 --max-iters 3 --engine explicit
; EXPECT: violated
; KNOWN: llvm/llvm-project PR #151062 (open), "[IRCE] Check loop clone legality
;   before attempting to do so", names convergent calls; not fixed in opt-22.
;
; IRCE splits the iteration space of a loop with a range check into a main
; loop and a post-loop (LoopConstrainer clones the body), choosing the split
; point from `len`, a per-thread value. The loop calls a convergent function
; on every iteration; LoopConstrainer never asks whether the body may be
; cloned under a divergent condition.
;
;   for (i = 0; i < n; i++) { sync(); if (i < len) use(i); }   (hot: i < len)
;
; Two threads with n = 1 both call sync() once, converged. After IRCE a thread
; whose len admits iteration 1 calls the main loop's sync(), one whose len
; does not calls the post-loop's copy.
;
;   convergence at `sync`: (occurrence 1 in tid 0, 1 in tid 1) is converged in
;   the reference but not converged in the target
;   scenario (N=2): tid 0: len=-2147483648 n=1   tid 1: len=2147483646 n=1
;   (convcheck prints tid 1's len as -9223372034707292162, an i64 whose low
;   32 bits are 2147483646)
;   reference (CFG level)    target (after IRCEPass)
;   |       | 1     |        |       | 1     | 2     |
;   | tid 0 | sync1 |        | tid 0 |       | sync1 |
;   | tid 1 | sync2 |        | tid 1 | sync2 |       |

declare void @sync() convergent nounwind
declare void @use(i32) nounwind

define void @irce(i32 %n, i32 %len) {
entry:
  %first = icmp sgt i32 %n, 0
  br i1 %first, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  call void @sync()
  %abc = icmp slt i32 %i, %len
  br i1 %abc, label %in.bounds, label %latch, !prof !1

in.bounds:
  call void @use(i32 %i)
  br label %latch

latch:
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

!1 = !{!"branch_weights", i32 64, i32 4}
