; ModuleID = 'plain_kernels_O0.ll'
source_filename = "plain-kernels.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local void @if_else() local_unnamed_addr #0 {
  tail call void @A() #3
  %1 = tail call i32 @c() #4
  %.not = icmp eq i32 %1, 0
  br i1 %.not, label %3, label %2

2:                                                ; preds = %0
  tail call void @B() #3
  br label %4

3:                                                ; preds = %0
  tail call void @C() #3
  br label %4

4:                                                ; preds = %3, %2
  tail call void @D() #3
  ret void
}

; Function Attrs: convergent
declare void @A() local_unnamed_addr #1

declare i32 @c() local_unnamed_addr #2

; Function Attrs: convergent
declare void @B() local_unnamed_addr #1

; Function Attrs: convergent
declare void @C() local_unnamed_addr #1

; Function Attrs: convergent
declare void @D() local_unnamed_addr #1

; Function Attrs: noinline nounwind uwtable
define dso_local void @loop_nest() local_unnamed_addr #0 {
  tail call void @A() #3
  br label %1

1:                                                ; preds = %.backedge, %0
  tail call void @B() #3
  %2 = tail call i32 @c() #4
  %.not = icmp eq i32 %2, 0
  br i1 %.not, label %3, label %.backedge

.backedge:                                        ; preds = %1, %3
  br label %1, !llvm.loop !6

3:                                                ; preds = %1
  tail call void @C() #3
  %4 = tail call i32 @c() #4
  %.not1 = icmp eq i32 %4, 0
  br i1 %.not1, label %5, label %.backedge

5:                                                ; preds = %3
  tail call void @D() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @loop_continue() local_unnamed_addr #0 {
  tail call void @A() #3
  br label %.backedge

.backedge:                                        ; preds = %.backedge.backedge, %0
  tail call void @B() #3
  %1 = tail call i32 @c() #4
  %.not = icmp eq i32 %1, 0
  br i1 %.not, label %2, label %.backedge.backedge

.backedge.backedge:                               ; preds = %.backedge, %2
  br label %.backedge

2:                                                ; preds = %.backedge
  tail call void @C() #3
  %3 = tail call i32 @c() #4
  %.not1 = icmp eq i32 %3, 0
  br i1 %.not1, label %4, label %.backedge.backedge

4:                                                ; preds = %2
  tail call void @D() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @divergent_exit() local_unnamed_addr #0 {
  tail call void @A() #3
  br label %1

1:                                                ; preds = %3, %0
  tail call void @B() #3
  %2 = tail call i32 @c() #4
  %.not = icmp eq i32 %2, 0
  br i1 %.not, label %3, label %4

3:                                                ; preds = %1
  tail call void @C() #3
  br label %1

4:                                                ; preds = %1
  tail call void @D() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @counted_loop() local_unnamed_addr #0 {
  tail call void @A() #3
  %1 = tail call i32 @c() #4
  %.not = icmp eq i32 %1, 0
  br i1 %.not, label %3, label %2

2:                                                ; preds = %0
  tail call void @B() #3
  br label %3

3:                                                ; preds = %0, %2
  tail call void @A() #3
  %4 = tail call i32 @c() #4
  %.not.1 = icmp eq i32 %4, 0
  br i1 %.not.1, label %6, label %5

5:                                                ; preds = %3
  tail call void @B() #3
  br label %6

6:                                                ; preds = %5, %3
  tail call void @A() #3
  %7 = tail call i32 @c() #4
  %.not.2 = icmp eq i32 %7, 0
  br i1 %.not.2, label %9, label %8

8:                                                ; preds = %6
  tail call void @B() #3
  br label %9

9:                                                ; preds = %8, %6
  tail call void @C() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @switch_fallthrough() local_unnamed_addr #0 {
  %1 = tail call i32 @c() #4
  switch i32 %1, label %5 [
    i32 0, label %2
    i32 1, label %3
    i32 2, label %4
  ]

2:                                                ; preds = %0
  tail call void @A() #3
  br label %3

3:                                                ; preds = %2, %0
  tail call void @B() #3
  br label %6

4:                                                ; preds = %0
  tail call void @C() #3
  br label %7

5:                                                ; preds = %0
  tail call void @D() #3
  br label %6

6:                                                ; preds = %5, %3
  tail call void @E() #3
  br label %7

7:                                                ; preds = %6, %4
  ret void
}

; Function Attrs: convergent
declare void @E() local_unnamed_addr #1

; Function Attrs: noinline nounwind uwtable
define dso_local void @nested_if() local_unnamed_addr #0 {
  %1 = tail call i32 @c() #4
  %.not = icmp eq i32 %1, 0
  br i1 %.not, label %6, label %2

2:                                                ; preds = %0
  %3 = tail call i32 @c() #4
  %.not1 = icmp eq i32 %3, 0
  br i1 %.not1, label %5, label %4

4:                                                ; preds = %2
  tail call void @A() #3
  br label %5

5:                                                ; preds = %4, %2
  tail call void @B() #3
  br label %6

6:                                                ; preds = %5, %0
  tail call void @C() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @goto_forward() local_unnamed_addr #0 {
  tail call void @A() #3
  %1 = tail call i32 @c() #4
  %.not = icmp eq i32 %1, 0
  br i1 %.not, label %2, label %3

2:                                                ; preds = %0
  tail call void @B() #3
  br label %3

3:                                                ; preds = %0, %2
  tail call void @C() #3
  ret void
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { convergent nounwind }
attributes #4 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
