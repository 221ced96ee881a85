; Blocks merged across convergence control intrinsics, which leaves a
; `loop` intrinsic after another convergent operation in its block: a
; static rule LLVM's verifier enforces ("Loop intrinsic cannot be preceded
; by a convergent operation in the same basic block."). The shapes of
; llvm/llvm-project #165642 (JumpThreading; fixed by PR #170247) and
; #157459 (SimplifyCFG; PR #166452). Written for convcheck; both
; functions pass `opt-19 -passes=verify`.

declare void @op() convergent
declare i1 @any(i1) convergent
declare token @llvm.experimental.convergence.entry() convergent
declare token @llvm.experimental.convergence.loop() convergent

; An outer loop that runs once (its header `outer` has no back edge any
; more, as after full unrolling) around a find-tid loop. `outer` has one
; predecessor and one successor; opt-19's jump-threading merges it into
; `entry`, so the outer `loop` intrinsic follows the `entry` intrinsic.
define void @nested_heart(i32 %tid) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  %c = icmp eq i32 %tid, 0
  br label %outer

outer:
  %o = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  br label %inner

inner:
  %first = phi i1 [ true, %outer ], [ false, %body ]
  %i = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %o) ]
  br i1 %first, label %body, label %exit

body:
  br i1 %c, label %then, label %inner

then:
  call void @op() [ "convergencectrl"(token %i) ]
  br label %exit

exit:
  ret void
}

; `while (b) { if (any(b)) ...; break; }`: a loop that every path leaves,
; with its heart in `while.cond`. opt-19's simplifycfg merges the header
; into `entry`.
define i1 @degenerate_loop(i1 %b) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br label %while.cond

while.cond:
  %l = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  br i1 %b, label %while.body, label %while.end

while.body:
  %a = call i1 @any(i1 %b) [ "convergencectrl"(token %l) ]
  br label %while.end

while.end:
  %r = phi i1 [ %b, %while.cond ], [ %a, %while.body ]
  %s = call i1 @any(i1 %r) [ "convergencectrl"(token %e) ]
  ret i1 %s
}
