; PIPELINE: loop(loop-flatten)
; OPT: opt-22 (and opt-19); in default<O3> with -enable-loop-flatten (off by default)
; EXPECT-opt-19: violated
; ARGS: --threads 2 --max-iters 4 --engine explicit
; EXPECT: violated
;
; LoopFlatten turns `for (i < N) for (j < N) { A[i*N+j] = vote(N); }` into one
; loop of N*N iterations although the inner loop calls a convergent function.
; With N per-thread, the k-th call of two threads is in different (outer,
; inner) iterations before and in the same flat iteration after: a thread with
; N = 2 makes its third call at (i=1, j=0), one with N = 3 at (i=0, j=2). They
; were not converged (different outer iterations) and are after flattening,
; so vote() now communicates with a different set of threads.
;
;   convergence at `vote`: (occurrence 3 in tid 0, 3 in tid 1) is not converged
;   in the reference but converged in the target
;   scenario (N=2): tid 0: A=0 N=2   tid 1: A=0 N=3
;   reference (CFG level)
;   | tid 0 | vote1 | vote3 |       | vote6 | vote8 |
;   | tid 1 | vote2 | vote4 | vote5 | vote7 | vote9 | vote10 | ...
;   target (after LoopFlattenPass)
;   | tid 0 | vote1 | vote3 | vote6 | vote8 |       |
;   | tid 1 | vote2 | vote4 | vote5 | vote7 | vote9 | vote10 | ...

target datalayout = "e-m:e-p:32:32-i64:64-v128:64:128-a:0:32-n32-S64"

declare i32 @vote(i32) convergent nounwind willreturn memory(none)

define void @flat(i32 %N, ptr %A) {
entry:
  %cmp3 = icmp ult i32 0, %N
  br i1 %cmp3, label %outer.ph, label %end

outer.ph:
  br label %inner.ph

inner.ph:
  %i = phi i32 [ 0, %outer.ph ], [ %inc2, %outer ]
  br label %inner

inner:
  %j = phi i32 [ 0, %inner.ph ], [ %inc1, %inner ]
  %mul = mul i32 %i, %N
  %gep = getelementptr inbounds i32, ptr %A, i32 %mul
  %arrayidx = getelementptr inbounds i32, ptr %gep, i32 %j
  %v = call i32 @vote(i32 %N)
  store i32 %v, ptr %arrayidx, align 4
  %inc1 = add nuw i32 %j, 1
  %cmp2 = icmp ult i32 %inc1, %N
  br i1 %cmp2, label %inner, label %outer

outer:
  %inc2 = add i32 %i, 1
  %cmp1 = icmp ult i32 %inc2, %N
  br i1 %cmp1, label %inner.ph, label %end.loopexit

end.loopexit:
  br label %end

end:
  ret void
}
