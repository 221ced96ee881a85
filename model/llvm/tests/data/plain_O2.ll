; ModuleID = 'plain_O0.ll'
source_filename = "plain.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@shared_buf = dso_local local_unnamed_addr global [64 x i32] zeroinitializer, align 16

; Function Attrs: noinline nounwind uwtable
define dso_local void @if_then_else(i32 noundef %0) local_unnamed_addr #0 {
  %2 = icmp slt i32 %0, 2
  br i1 %2, label %3, label %4

3:                                                ; preds = %1
  tail call void @op() #4
  br label %5

4:                                                ; preds = %1
  tail call void @op() #4
  br label %5

5:                                                ; preds = %4, %3
  tail call void @op() #4
  ret void
}

; Function Attrs: convergent
declare void @op() local_unnamed_addr #1

; Function Attrs: noinline nounwind uwtable
define dso_local void @loop_with_break(i32 noundef %0) local_unnamed_addr #0 {
  %2 = icmp sgt i32 %0, 0
  br i1 %2, label %.lr.ph, label %._crit_edge

.lr.ph:                                           ; preds = %1, %4
  %.03 = phi i32 [ %5, %4 ], [ 0, %1 ]
  %3 = tail call i32 @c() #5
  %.not = icmp eq i32 %3, 0
  br i1 %.not, label %4, label %._crit_edge

4:                                                ; preds = %.lr.ph
  tail call void @op() #4
  %5 = add nuw nsw i32 %.03, 1
  %exitcond.not = icmp eq i32 %5, %0
  br i1 %exitcond.not, label %._crit_edge, label %.lr.ph, !llvm.loop !6

._crit_edge:                                      ; preds = %4, %.lr.ph, %1
  tail call void @op() #4
  ret void
}

declare i32 @c() local_unnamed_addr #2

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @switch_fallthrough(i32 noundef %0) local_unnamed_addr #0 {
  switch i32 %0, label %4 [
    i32 0, label %2
    i32 1, label %6
    i32 7, label %3
  ]

2:                                                ; preds = %1
  tail call void @op() #4
  br label %6

3:                                                ; preds = %1
  tail call void @op() #4
  br label %6

4:                                                ; preds = %1
  %5 = mul nsw i32 %0, 3
  br label %6

6:                                                ; preds = %4, %2, %1, %3
  %.06 = phi i32 [ -1, %3 ], [ %5, %4 ], [ 2, %1 ], [ 3, %2 ]
  ret i32 %.06
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @goto_cycle() local_unnamed_addr #0 {
  br label %1

1:                                                ; preds = %1, %0
  tail call void @op() #4
  %2 = tail call i32 @c() #5
  %.not = icmp eq i32 %2, 0
  br i1 %.not, label %3, label %1

3:                                                ; preds = %1
  tail call void @op() #4
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @arith(i32 noundef %0, i32 noundef %1, i64 noundef %2) local_unnamed_addr #0 {
  %4 = shl i32 %0, 3
  %5 = lshr i32 %1, 2
  %6 = xor i32 %5, %4
  %7 = udiv i32 %1, 3
  %8 = urem i32 %1, 5
  %9 = add nuw nsw i32 %7, %8
  %10 = zext i32 %0 to i64
  %.neg = mul nuw nsw i64 %10, 65529
  %11 = add i64 %.neg, %2
  %12 = trunc i64 %11 to i32
  %13 = tail call i32 @c() #5
  %.not = icmp eq i32 %13, 0
  %14 = select i1 %.not, i32 %9, i32 %6
  %sext = shl i32 %12, 16
  %15 = ashr exact i32 %sext, 16
  %16 = add nsw i32 %14, %15
  %17 = and i32 %0, 63
  %18 = zext nneg i32 %17 to i64
  %19 = getelementptr inbounds [64 x i32], ptr @shared_buf, i64 0, i64 %18
  store i32 %16, ptr %19, align 4
  %20 = add nsw i32 %0, 1
  %21 = and i32 %20, 63
  %22 = zext nneg i32 %21 to i64
  %23 = getelementptr inbounds [64 x i32], ptr @shared_buf, i64 0, i64 %22
  %24 = load i32, ptr %23, align 4
  %25 = icmp sgt i32 %0, 0
  %26 = icmp ne i32 %1, 0
  %27 = and i1 %25, %26
  %28 = zext i1 %27 to i32
  %29 = add nsw i32 %24, %28
  ret i32 %29
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @nested_loops(i32 noundef %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp sgt i32 %0, 0
  br i1 %3, label %.preheader.preheader, label %._crit_edge

.preheader.preheader:                             ; preds = %2
  %smax = tail call i32 @llvm.smax.i32(i32 %1, i32 1)
  %4 = add nsw i32 %smax, -1
  br label %.preheader

.preheader:                                       ; preds = %.preheader.preheader, %.critedge
  %.068 = phi i32 [ %9, %.critedge ], [ 0, %.preheader.preheader ]
  br label %5

5:                                                ; preds = %.preheader, %6
  %.0 = phi i32 [ %7, %6 ], [ 0, %.preheader ]
  tail call void @op() #4
  %exitcond.not = icmp eq i32 %.0, %4
  br i1 %exitcond.not, label %.critedge, label %6

6:                                                ; preds = %5
  %7 = add nuw nsw i32 %.0, 1
  %8 = tail call i32 @c() #5
  %.not = icmp eq i32 %8, 0
  br i1 %.not, label %5, label %.critedge, !llvm.loop !8

.critedge:                                        ; preds = %5, %6
  %9 = add nuw nsw i32 %.068, 1
  %exitcond9.not = icmp eq i32 %9, %0
  br i1 %exitcond9.not, label %._crit_edge, label %.preheader, !llvm.loop !9

._crit_edge:                                      ; preds = %.critedge, %2
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #3

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind }
attributes #5 = { nounwind }

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
!8 = distinct !{!8, !7}
!9 = distinct !{!9, !7}
