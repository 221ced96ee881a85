; More convergent operations under the passes that must respect them,
; written for convcheck after what LLVM's own tests of those passes
; exercise (convergence-control tokens under loop unrolling, unroll
; pragmas, phi-driven branches after a barrier, token-controlled calls on
; both sides of a branch, loop distribution, speculation). Each function's
; comment names its pipeline; checker/tests/llvm_tests_style.rs runs each
; one through real opt-19 and requires a verdict and no violation, except
; @speculate_token_call, which LLVM 19.1.7 gets wrong (see its comment).

declare void @sync() convergent
declare i32 @vote(i32) convergent
declare i32 @cond()
declare i32 @pure_vote(i32) convergent readnone speculatable
declare i32 @lane_op(i32) convergent nounwind readnone
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()

; loop-unroll: a counted loop whose heart is controlled by the function's
; entry token; full unrolling keeps one call per iteration, each still
; controlled by the (now acyclic) loop token.
define void @unroll_entry_token() convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  br label %body

body:
  call void @sync() [ "convergencectrl"(token %h) ]
  %next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %next, 3
  br i1 %done, label %exit, label %head

exit:
  ret void
}

; loop-unroll: an unroll pragma asks for 2 copies of a 6-iteration loop
; with a convergent call; 2 divides 6, so no remainder loop is needed.
define void @unroll_pragma_divides() {
entry:
  br label %loop, !llvm.loop !0

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @sync()
  %next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %next, 6
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:
  ret void
}

; loop-unroll: the pragma asks for 2 copies of a loop whose trip count is
; a parameter; a remainder would split the threads' iterations, so the
; loop keeps its shape.
define void @unroll_pragma_runtime(i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @sync()
  %next = add nuw nsw i32 %i, 1
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:
  ret void
}

; simplifycfg: the branch after a barrier depends on a phi of constants;
; threading it into the predecessors would duplicate the barrier.
define void @simplifycfg_phi_after_barrier(i32 %x) {
entry:
  %c = icmp ne i32 %x, 0
  br i1 %c, label %side, label %merge

side:
  %v = call i32 @cond()
  br label %merge

merge:
  %p = phi i1 [ true, %entry ], [ false, %side ]
  call void @sync()
  br i1 %p, label %exit, label %other

other:
  call void @sync()
  br label %exit

exit:
  ret void
}

; simplifycfg (hoisting and sinking): the same token-controlled call on
; both sides of a divergent branch may not become one call.
define i32 @simplifycfg_token_both_sides(i32 %x) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  %c = call i32 @cond()
  %b = icmp ne i32 %c, 0
  br i1 %b, label %then, label %else

then:
  %a = call i32 @vote(i32 %x) [ "convergencectrl"(token %e) ]
  br label %join

else:
  %d = call i32 @vote(i32 %x) [ "convergencectrl"(token %e) ]
  br label %join

join:
  %r = phi i32 [ %a, %then ], [ %d, %else ]
  ret i32 %r
}

; jump-threading: a barrier between two branches on the same varying
; value; threading would copy the barrier into both paths.
define void @jump_threading_barrier(i32 %x) {
entry:
  %v = call i32 @cond()
  %b = icmp eq i32 %v, %x
  br i1 %b, label %extra, label %mid

extra:
  call void @sync()
  br label %mid

mid:
  %p = phi i32 [ 1, %extra ], [ 0, %entry ]
  call void @sync()
  %q = icmp eq i32 %p, 1
  br i1 %q, label %exit, label %tail

tail:
  call void @sync()
  br label %exit

exit:
  ret void
}

; sink: a readnone convergent call whose only use is in a divergent branch
; stays where all threads run it.
define i32 @sink_readnone(i32 %x) {
entry:
  %v = call i32 @vote(i32 %x) readnone
  %c = call i32 @cond()
  %b = icmp ne i32 %c, 0
  br i1 %b, label %use, label %exit

use:
  ret i32 %v

exit:
  ret i32 0
}

; licm: a readnone convergent call in a loop with a varying exit, used
; after the loop, is not hoisted.
define i32 @licm_readnone_used_after(i32 %x) {
entry:
  br label %loop

loop:
  %v = call i32 @vote(i32 %x) readnone
  %c = call i32 @cond()
  %more = icmp ne i32 %c, 0
  br i1 %more, label %loop, label %exit

exit:
  ret i32 %v
}

; gvn: a readnone convergent call repeated in a branch is not replaced by
; the earlier call (the two run with different sets of threads).
define i32 @gvn_readnone_in_branch(i32 %x) {
entry:
  %a = call i32 @vote(i32 %x) readnone
  %c = call i32 @cond()
  %b = icmp ne i32 %c, 0
  br i1 %b, label %then, label %exit

then:
  %d = call i32 @vote(i32 %x) readnone
  br label %exit

exit:
  %r = phi i32 [ %a, %entry ], [ %d, %then ]
  ret i32 %r
}

; loop-distribute (asked for by the loop's metadata): a loop of memory
; accesses and a convergent call over a loaded value, four iterations.
; The arrays may overlap, so distributing needs run-time checks across the
; partitions, that is two versions of the loop: a convergent call may not
; be versioned, and the loop stays as it is.
define void @distribute_with_call(ptr %a, ptr %b, ptr %c) nounwind {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pa = getelementptr inbounds i32, ptr %a, i64 %i
  %va = load i32, ptr %pa, align 4
  %next = add nuw nsw i64 %i, 1
  %pa1 = getelementptr inbounds i32, ptr %a, i64 %next
  store i32 %va, ptr %pa1, align 4
  %pb = getelementptr inbounds i32, ptr %b, i64 %i
  %vb = load i32, ptr %pb, align 4
  %w = call i32 @lane_op(i32 %vb)
  %pc = getelementptr inbounds i32, ptr %c, i64 %i
  store i32 %w, ptr %pc, align 4
  %done = icmp eq i64 %next, 4
  br i1 %done, label %exit, label %loop, !llvm.loop !2

exit:
  ret void
}

; simple-loop-unswitch: a token-controlled loop whose exit depends on the
; thread's parameter, with the convergent call behind a second test of it.
define void @unswitch_token_loop(i32 %t) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  %more = icmp ult i32 %i, 4
  br i1 %more, label %body, label %exit

body:
  %hit = icmp eq i32 %i, %t
  %next = add nuw i32 %i, 1
  br i1 %hit, label %found, label %head

found:
  %r = call i32 @vote(i32 %t) [ "convergencectrl"(token %h) ]
  br label %exit

exit:
  ret void
}

; simplifycfg: LLVM 19.1.7 speculates this speculatable convergent call
; into the entry block (`select` of its result); every thread then runs
; it, where only the threads with %c set did. LLVM's later tests expect
; the call to stay in %then. convcheck must report it violated.
define i32 @speculate_token_call(i1 %c, i32 %x) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br i1 %c, label %then, label %end

then:
  %v = call i32 @pure_vote(i32 %x) [ "convergencectrl"(token %e) ]
  br label %end

end:
  %r = phi i32 [ 0, %entry ], [ %v, %then ]
  ret i32 %r
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.count", i32 2}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.distribute.enable", i1 true}
