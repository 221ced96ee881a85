; LLVM's llvm/test/Transforms/SimpleLoopUnswitch/nontrivial-unswitch.ll, function
; test6 (CHECK lines left out; extracted with llvm-extract-19 --func=test6).
; Target: test6_unswitched.ll.


define i32 @test6(ptr %ptr, i1 %cond1, ptr %a.ptr, ptr %b.ptr) {
entry:
  br label %loop_begin

loop_begin:                                       ; preds = %latch, %entry
  %v = load i1, ptr %ptr, align 1
  br i1 %cond1, label %loop_a, label %loop_b

loop_a:                                           ; preds = %loop_begin
  br label %loop_a_inner

loop_a_inner:                                     ; preds = %loop_a_inner, %loop_a
  %va = load i1, ptr %ptr, align 1
  %a = load i32, ptr %a.ptr, align 4
  br i1 %va, label %loop_a_inner, label %loop_a_inner_exit

loop_a_inner_exit:                                ; preds = %loop_a_inner
  %a.lcssa = phi i32 [ %a, %loop_a_inner ]
  br label %latch

loop_b:                                           ; preds = %loop_begin
  br label %loop_b_inner

loop_b_inner:                                     ; preds = %loop_b_inner, %loop_b
  %vb = load i1, ptr %ptr, align 1
  %b = load i32, ptr %b.ptr, align 4
  br i1 %vb, label %loop_b_inner, label %loop_b_inner_exit

loop_b_inner_exit:                                ; preds = %loop_b_inner
  %b.lcssa = phi i32 [ %b, %loop_b_inner ]
  br label %latch

latch:                                            ; preds = %loop_b_inner_exit, %loop_a_inner_exit
  %ab.phi = phi i32 [ %a.lcssa, %loop_a_inner_exit ], [ %b.lcssa, %loop_b_inner_exit ]
  br i1 %v, label %loop_begin, label %loop_exit

loop_exit:                                        ; preds = %latch
  %ab.lcssa = phi i32 [ %ab.phi, %latch ]
  ret i32 %ab.lcssa
}
