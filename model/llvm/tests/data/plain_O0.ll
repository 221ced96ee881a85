; ModuleID = 'plain.c'
source_filename = "plain.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@shared_buf = dso_local global [64 x i32] zeroinitializer, align 16

; Function Attrs: noinline nounwind uwtable
define dso_local void @if_then_else(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
  %3 = load i32, ptr %2, align 4
  %4 = icmp slt i32 %3, 2
  br i1 %4, label %5, label %6

5:                                                ; preds = %1
  call void @op() #3
  br label %7

6:                                                ; preds = %1
  call void @op() #3
  br label %7

7:                                                ; preds = %6, %5
  call void @op() #3
  ret void
}

; Function Attrs: convergent
declare void @op() #1

; Function Attrs: noinline nounwind uwtable
define dso_local void @loop_with_break(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
  store i32 0, ptr %3, align 4
  br label %4

4:                                                ; preds = %13, %1
  %5 = load i32, ptr %3, align 4
  %6 = load i32, ptr %2, align 4
  %7 = icmp slt i32 %5, %6
  br i1 %7, label %8, label %16

8:                                                ; preds = %4
  %9 = call i32 @c()
  %10 = icmp ne i32 %9, 0
  br i1 %10, label %11, label %12

11:                                               ; preds = %8
  br label %16

12:                                               ; preds = %8
  call void @op() #3
  br label %13

13:                                               ; preds = %12
  %14 = load i32, ptr %3, align 4
  %15 = add nsw i32 %14, 1
  store i32 %15, ptr %3, align 4
  br label %4, !llvm.loop !6

16:                                               ; preds = %11, %4
  call void @op() #3
  ret void
}

declare i32 @c() #2

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @switch_fallthrough(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, ptr %3, align 4
  store i32 0, ptr %4, align 4
  %5 = load i32, ptr %3, align 4
  switch i32 %5, label %13 [
    i32 0, label %6
    i32 1, label %9
    i32 7, label %12
  ]

6:                                                ; preds = %1
  call void @op() #3
  %7 = load i32, ptr %4, align 4
  %8 = add nsw i32 %7, 1
  store i32 %8, ptr %4, align 4
  br label %9

9:                                                ; preds = %1, %6
  %10 = load i32, ptr %4, align 4
  %11 = add nsw i32 %10, 2
  store i32 %11, ptr %4, align 4
  br label %16

12:                                               ; preds = %1
  call void @op() #3
  store i32 -1, ptr %2, align 4
  br label %18

13:                                               ; preds = %1
  %14 = load i32, ptr %3, align 4
  %15 = mul nsw i32 %14, 3
  store i32 %15, ptr %4, align 4
  br label %16

16:                                               ; preds = %13, %9
  %17 = load i32, ptr %4, align 4
  store i32 %17, ptr %2, align 4
  br label %18

18:                                               ; preds = %16, %12
  %19 = load i32, ptr %2, align 4
  ret i32 %19
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @goto_cycle() #0 {
  br label %1

1:                                                ; preds = %4, %0
  call void @op() #3
  %2 = call i32 @c()
  %3 = icmp ne i32 %2, 0
  br i1 %3, label %4, label %5

4:                                                ; preds = %1
  br label %1

5:                                                ; preds = %1
  call void @op() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @arith(i32 noundef %0, i32 noundef %1, i64 noundef %2) #0 {
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i64, align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i64, align 8
  %10 = alloca i16, align 2
  %11 = alloca i32, align 4
  store i32 %0, ptr %4, align 4
  store i32 %1, ptr %5, align 4
  store i64 %2, ptr %6, align 8
  %12 = load i32, ptr %4, align 4
  %13 = shl i32 %12, 3
  %14 = load i32, ptr %5, align 4
  %15 = lshr i32 %14, 2
  %16 = xor i32 %13, %15
  store i32 %16, ptr %7, align 4
  %17 = load i32, ptr %5, align 4
  %18 = udiv i32 %17, 3
  %19 = load i32, ptr %5, align 4
  %20 = urem i32 %19, 5
  %21 = add i32 %18, %20
  store i32 %21, ptr %8, align 4
  %22 = load i64, ptr %6, align 8
  %23 = load i32, ptr %4, align 4
  %24 = sext i32 %23 to i64
  %25 = mul nsw i64 %24, 7
  %26 = sub nsw i64 %22, %25
  store i64 %26, ptr %9, align 8
  %27 = load i64, ptr %9, align 8
  %28 = trunc i64 %27 to i16
  store i16 %28, ptr %10, align 2
  %29 = call i32 @c()
  %30 = icmp ne i32 %29, 0
  br i1 %30, label %31, label %33

31:                                               ; preds = %3
  %32 = load i32, ptr %7, align 4
  br label %35

33:                                               ; preds = %3
  %34 = load i32, ptr %8, align 4
  br label %35

35:                                               ; preds = %33, %31
  %36 = phi i32 [ %32, %31 ], [ %34, %33 ]
  store i32 %36, ptr %11, align 4
  %37 = load i32, ptr %11, align 4
  %38 = load i16, ptr %10, align 2
  %39 = sext i16 %38 to i32
  %40 = add nsw i32 %37, %39
  %41 = load i32, ptr %4, align 4
  %42 = and i32 %41, 63
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds [64 x i32], ptr @shared_buf, i64 0, i64 %43
  store i32 %40, ptr %44, align 4
  %45 = load i32, ptr %4, align 4
  %46 = add nsw i32 %45, 1
  %47 = and i32 %46, 63
  %48 = sext i32 %47 to i64
  %49 = getelementptr inbounds [64 x i32], ptr @shared_buf, i64 0, i64 %48
  %50 = load i32, ptr %49, align 4
  %51 = load i32, ptr %4, align 4
  %52 = icmp sgt i32 %51, 0
  br i1 %52, label %53, label %56

53:                                               ; preds = %35
  %54 = load i32, ptr %5, align 4
  %55 = icmp ne i32 %54, 0
  br label %56

56:                                               ; preds = %53, %35
  %57 = phi i1 [ false, %35 ], [ %55, %53 ]
  %58 = zext i1 %57 to i32
  %59 = add nsw i32 %50, %58
  ret i32 %59
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @nested_loops(i32 noundef %0, i32 noundef %1) #0 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store i32 %0, ptr %3, align 4
  store i32 %1, ptr %4, align 4
  store i32 0, ptr %5, align 4
  br label %7

7:                                                ; preds = %25, %2
  %8 = load i32, ptr %5, align 4
  %9 = load i32, ptr %3, align 4
  %10 = icmp slt i32 %8, %9
  br i1 %10, label %11, label %28

11:                                               ; preds = %7
  store i32 0, ptr %6, align 4
  br label %12

12:                                               ; preds = %23, %11
  call void @op() #3
  %13 = load i32, ptr %6, align 4
  %14 = add nsw i32 %13, 1
  store i32 %14, ptr %6, align 4
  br label %15

15:                                               ; preds = %12
  %16 = load i32, ptr %6, align 4
  %17 = load i32, ptr %4, align 4
  %18 = icmp slt i32 %16, %17
  br i1 %18, label %19, label %23

19:                                               ; preds = %15
  %20 = call i32 @c()
  %21 = icmp ne i32 %20, 0
  %22 = xor i1 %21, true
  br label %23

23:                                               ; preds = %19, %15
  %24 = phi i1 [ false, %15 ], [ %22, %19 ]
  br i1 %24, label %12, label %25, !llvm.loop !8

25:                                               ; preds = %23
  %26 = load i32, ptr %5, align 4
  %27 = add nsw i32 %26, 1
  store i32 %27, ptr %5, align 4
  br label %7, !llvm.loop !9

28:                                               ; preds = %7
  ret void
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { convergent }

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
