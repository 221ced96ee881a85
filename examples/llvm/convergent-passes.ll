; Convergent operations under the passes that must respect them, written
; for convcheck in the style of LLVM's own tests of convergent calls
; (LoopUnroll, SimplifyCFG, JumpThreading, LICM, GVN, Sink,
; SimpleLoopUnswitch). checker/tests/llvm_cli.rs runs each function under
; its pass with real opt-19 and requires no violation: LLVM 19.1.7 keeps
; these correct, so a violation would be a false alarm of convcheck.

declare void @sync() convergent
declare i32 @vote(i32) convergent
declare i32 @cond()

; loop-unroll: a counted loop with a convergent call, fully unrolled.
define void @unroll_counted() {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @sync()
  %next = add nsw i32 %i, 1
  %done = icmp eq i32 %next, 3
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; loop-unroll: a trip count that is a multiple of 4 at run time.
define void @unroll_runtime(i32 %n) {
entry:
  %trip = mul nsw i32 %n, 4
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @sync()
  %next = add nsw i32 %i, 1
  %done = icmp sge i32 %next, %trip
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; simplifycfg: the same convergent call on both sides of a divergent
; branch may not be hoisted or sunk into one.
define i32 @simplifycfg_both_sides(i32 %x) {
entry:
  %c = call i32 @cond()
  %b = icmp ne i32 %c, 0
  br i1 %b, label %then, label %else

then:
  %a = call i32 @vote(i32 %x)
  br label %join

else:
  %e = call i32 @vote(i32 %x)
  br label %join

join:
  %r = phi i32 [ %a, %then ], [ %e, %else ]
  ret i32 %r
}

; jump-threading: a block with a convergent call between two branches on
; the same condition may not be duplicated.
define void @jump_threading_duplicate() {
entry:
  %c = call i32 @cond()
  %b = icmp ne i32 %c, 0
  br i1 %b, label %left, label %mid

left:
  call void @sync()
  br label %mid

mid:
  call void @sync()
  br i1 %b, label %again, label %exit

again:
  call void @sync()
  br label %exit

exit:
  ret void
}

; licm: a convergent call with invariant operands inside a loop with a
; divergent exit may not be hoisted out of it.
define void @licm_invariant(i32 %x) {
entry:
  br label %loop

loop:
  %v = call i32 @vote(i32 %x)
  %c = call i32 @cond()
  %more = icmp ne i32 %c, 0
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; gvn: two convergent calls with equal operands in different blocks.
define i32 @gvn_two_calls(i32 %x) {
entry:
  %a = call i32 @vote(i32 %x)
  %c = call i32 @cond()
  %b = icmp ne i32 %c, 0
  br i1 %b, label %then, label %exit

then:
  %d = call i32 @vote(i32 %x)
  br label %exit

exit:
  %r = phi i32 [ %a, %entry ], [ %d, %then ]
  ret i32 %r
}

; sink: a convergent call whose result is used on one side only may not
; be sunk into that side.
define i32 @sink_one_use(i32 %x) {
entry:
  %v = call i32 @vote(i32 %x)
  %c = call i32 @cond()
  %b = icmp ne i32 %c, 0
  br i1 %b, label %use, label %exit

use:
  %w = add i32 %v, 1
  br label %exit

exit:
  %r = phi i32 [ %w, %use ], [ 0, %entry ]
  ret i32 %r
}

; simple-loop-unswitch: a loop with a convergent call and a condition that
; is invariant in the loop (a parameter) may not be unswitched around it.
define void @unswitch_invariant(i32 %p) {
entry:
  %inv = icmp ne i32 %p, 0
  br label %loop

loop:
  br i1 %inv, label %then, label %latch

then:
  call void @sync()
  br label %latch

latch:
  %c = call i32 @cond()
  %more = icmp ne i32 %c, 0
  br i1 %more, label %loop, label %exit

exit:
  ret void
}
