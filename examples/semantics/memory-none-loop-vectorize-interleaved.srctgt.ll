; CLASS: memory-none
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of out are
;  inexact, class m; the other engines prove or preserve it.)
; ARGS: --max-iters 9
; The LoopVectorize probe of docs/src/findings.md ("Probes"), with a trip
; count every thread shares (8): `for (i = 0; i < 8; i++) out[i] =
; vote(i);`, `vote` `convergent memory(none)` with a vector variant. The
; target is opt-22's output of `-passes=loop-vectorize
; -force-vector-width=1 -force-vector-interleave=2` (opt-19's differs only
; in names): the interleaved body calls `vote(i)` and `vote(i + 1)` before
; both stores, so the first store moves after the second call. Before the
; two projections this was a single-thread "violation" under every engine;
; with a per-thread trip count the remainder loop is finding 13.3.
declare i32 @vote(i32) #0
declare <4 x i32> @vote_v4(<4 x i32>) #0
attributes #0 = { convergent nounwind willreturn memory(none) }
attributes #1 = { convergent "vector-function-abi-variant"="_ZGV_LLVM_N4v_vote(vote_v4)" }

define void @src(ptr addrspace(1) %out) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = call i32 @vote(i32 %i) #1
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i.next, 8
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %c0 = icmp sgt i32 8, 0
  br i1 %c0, label %loop.preheader, label %exit

loop.preheader:                                   ; preds = %entry
  br label %vector.ph

vector.ph:                                        ; preds = %loop.preheader
  br label %vector.body

vector.body:                                      ; preds = %vector.body, %vector.ph
  %index = phi i32 [ 0, %vector.ph ], [ %index.next, %vector.body ]
  %0 = add i32 %index, 1
  %1 = call i32 @vote(i32 %index) #1
  %2 = call i32 @vote(i32 %0) #1
  %3 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %index
  %4 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %0
  store i32 %1, ptr addrspace(1) %3, align 4
  store i32 %2, ptr addrspace(1) %4, align 4
  %index.next = add nuw i32 %index, 2
  %5 = icmp eq i32 %index.next, 8
  br i1 %5, label %middle.block, label %vector.body

middle.block:                                     ; preds = %vector.body
  br label %exit.loopexit

exit.loopexit:                                    ; preds = %middle.block
  br label %exit

exit:                                             ; preds = %exit.loopexit, %entry
  ret void
}
