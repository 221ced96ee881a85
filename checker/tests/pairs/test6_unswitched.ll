; opt-19 -passes='loop(simple-loop-unswitch<nontrivial>),verify<loops>' -S test6.ll


define i32 @test6(ptr %ptr, i1 %cond1, ptr %a.ptr, ptr %b.ptr) {
entry:
  br i1 %cond1, label %entry.split.us, label %entry.split

entry.split.us:                                   ; preds = %entry
  br label %loop_begin.us

loop_begin.us:                                    ; preds = %latch.us, %entry.split.us
  %v.us = load i1, ptr %ptr, align 1
  br label %loop_a.us

loop_a.us:                                        ; preds = %loop_begin.us
  br label %loop_a_inner.us

loop_a_inner.us:                                  ; preds = %loop_a_inner.us, %loop_a.us
  %va.us = load i1, ptr %ptr, align 1
  %a.us = load i32, ptr %a.ptr, align 4
  br i1 %va.us, label %loop_a_inner.us, label %loop_a_inner_exit.us

loop_a_inner_exit.us:                             ; preds = %loop_a_inner.us
  %a.lcssa.us = phi i32 [ %a.us, %loop_a_inner.us ]
  br label %latch.us

latch.us:                                         ; preds = %loop_a_inner_exit.us
  %ab.phi.us = phi i32 [ %a.lcssa.us, %loop_a_inner_exit.us ]
  br i1 %v.us, label %loop_begin.us, label %loop_exit.split.us

loop_exit.split.us:                               ; preds = %latch.us
  %ab.lcssa.us = phi i32 [ %ab.phi.us, %latch.us ]
  br label %loop_exit

entry.split:                                      ; preds = %entry
  br label %loop_begin

loop_begin:                                       ; preds = %latch, %entry.split
  %v = load i1, ptr %ptr, align 1
  br label %loop_b

loop_b:                                           ; preds = %loop_begin
  br label %loop_b_inner

loop_b_inner:                                     ; preds = %loop_b_inner, %loop_b
  %vb = load i1, ptr %ptr, align 1
  %b = load i32, ptr %b.ptr, align 4
  br i1 %vb, label %loop_b_inner, label %loop_b_inner_exit

loop_b_inner_exit:                                ; preds = %loop_b_inner
  %b.lcssa = phi i32 [ %b, %loop_b_inner ]
  br label %latch

latch:                                            ; preds = %loop_b_inner_exit
  br i1 %v, label %loop_begin, label %loop_exit.split

loop_exit.split:                                  ; preds = %latch
  %ab.lcssa = phi i32 [ %b.lcssa, %latch ]
  br label %loop_exit

loop_exit:                                        ; preds = %loop_exit.split.us, %loop_exit.split
  %.us-phi = phi i32 [ %ab.lcssa, %loop_exit.split ], [ %ab.lcssa.us, %loop_exit.split.us ]
  ret i32 %.us-phi
}
