; Control height reduction cloning a convergent call under a new
; per-thread condition (llvm/llvm-project PR #180882, which makes CHR skip
; regions with convergent calls). Written for convcheck; checked with
; `opt-19 -passes=verify`.
;
;   r = x > 0 ? vote(x) : 0;
;   if (x < 100) use(r);
;
; Both branches are biased (the branch weights say 999 to 1) and test the
; same value, so CHR (`opt-19 -passes='require<profile-summary>,function(chr)'`,
; which needs the profile summary below) tests `x > 0 && x < 100` once up
; front and clones the region: a hot copy for the threads that pass both
; tests and the original branches for the others. A thread with x = 1
; calls vote() in the hot copy and one with x = 100 in the cold copy: two
; different calls, where before both called the one vote() together.

declare i32 @vote(i32) convergent nounwind willreturn memory(none)
declare void @use(i32)

define void @chr_vote(i32 %x) !prof !20 {
entry:
  %c1 = icmp sgt i32 %x, 0
  br i1 %c1, label %then1, label %join1, !prof !21

then1:
  %v = call i32 @vote(i32 %x)
  br label %join1

join1:
  %r = phi i32 [ %v, %then1 ], [ 0, %entry ]
  %c2 = icmp slt i32 %x, 100
  br i1 %c2, label %then2, label %join2, !prof !21

then2:
  call void @use(i32 %r)
  br label %join2

join2:
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"ProfileSummary", !1}
!1 = !{!2, !3, !4, !5, !6, !7, !8, !9}
!2 = !{!"ProfileFormat", !"InstrProf"}
!3 = !{!"TotalCount", i64 10000}
!4 = !{!"MaxCount", i64 10}
!5 = !{!"MaxInternalCount", i64 1}
!6 = !{!"MaxFunctionCount", i64 1000}
!7 = !{!"NumCounts", i64 3}
!8 = !{!"NumFunctions", i64 1}
!9 = !{!"DetailedSummary", !10}
!10 = !{!11, !12, !13}
!11 = !{i32 10000, i64 100, i32 1}
!12 = !{i32 999000, i64 100, i32 1}
!13 = !{i32 999999, i64 1, i32 2}
!20 = !{!"function_entry_count", i64 100}
!21 = !{!"branch_weights", i32 999, i32 1}
