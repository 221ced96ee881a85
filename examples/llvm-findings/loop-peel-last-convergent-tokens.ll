; PIPELINE: loop-unroll
; OPT: opt-22 (opt-19 leaves the loop alone)
; EXPECT-opt-19: proved
; EXPECT: violated
;
; The same finding as loop-peel-last-convergent.ll (findings.md 13.1) with
; convergence-control tokens: sync() is controlled by the loop's heart.
; LoopPeel copies the heart into the peeled iteration (`%h.peel`, outside every
; cycle; opt-22's verifier accepts it), so a thread with n = 2 runs its second
; iteration under %h.peel and one with n = 3 under %h: the second sync() of the
; two threads, converged through the heart's second iteration before, is not
; after. LoopUnroll's own unrolling asks whether the loop's convergence is
; controlled by a heart before it adds a remainder; peeling does not.
;
;   convergence at `sync`: (occurrence 2 in tid 0, 2 in tid 1) is converged in
;   the reference but not converged in the target
;   scenario (N=2): tid 0: n=2   tid 1: n=3
;   reference (CFG level)                target (after LoopUnrollPass)
;   | tid 0 | sync1 | sync3 |       |    | tid 0 | sync1 |       | sync3 |
;   | tid 1 | sync2 | sync4 | sync5 |    | tid 1 | sync2 | sync4 | sync5 |

declare void @sync() convergent nounwind
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()

define void @peel_tok(i32 %n) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  %c0 = icmp ugt i32 %n, 1
  br i1 %c0, label %ph, label %exit

ph:
  %nm1 = add i32 %n, -1
  br label %loop

loop:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  call void @sync() [ "convergencectrl"(token %h) ]
  %last = icmp eq i32 %i, %nm1
  br i1 %last, label %then, label %latch

then:
  br label %latch

latch:
  %i.next = add nuw i32 %i, 1
  %c = icmp eq i32 %i.next, %n
  br i1 %c, label %exit, label %loop

exit:
  ret void
}
