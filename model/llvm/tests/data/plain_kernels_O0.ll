; ModuleID = 'plain-kernels.c'
source_filename = "plain-kernels.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local void @if_else() #0 {
  call void @A() #3
  %1 = call i32 @c()
  %2 = icmp ne i32 %1, 0
  br i1 %2, label %3, label %4

3:                                                ; preds = %0
  call void @B() #3
  br label %5

4:                                                ; preds = %0
  call void @C() #3
  br label %5

5:                                                ; preds = %4, %3
  call void @D() #3
  ret void
}

; Function Attrs: convergent
declare void @A() #1

declare i32 @c() #2

; Function Attrs: convergent
declare void @B() #1

; Function Attrs: convergent
declare void @C() #1

; Function Attrs: convergent
declare void @D() #1

; Function Attrs: noinline nounwind uwtable
define dso_local void @loop_nest() #0 {
  call void @A() #3
  br label %1

1:                                                ; preds = %7, %0
  br label %2

2:                                                ; preds = %3, %1
  call void @B() #3
  br label %3

3:                                                ; preds = %2
  %4 = call i32 @c()
  %5 = icmp ne i32 %4, 0
  br i1 %5, label %2, label %6, !llvm.loop !6

6:                                                ; preds = %3
  call void @C() #3
  br label %7

7:                                                ; preds = %6
  %8 = call i32 @c()
  %9 = icmp ne i32 %8, 0
  br i1 %9, label %1, label %10, !llvm.loop !8

10:                                               ; preds = %7
  call void @D() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @loop_continue() #0 {
  call void @A() #3
  br label %1

1:                                                ; preds = %8, %4, %0
  call void @B() #3
  %2 = call i32 @c()
  %3 = icmp ne i32 %2, 0
  br i1 %3, label %4, label %5

4:                                                ; preds = %1
  br label %1

5:                                                ; preds = %1
  call void @C() #3
  %6 = call i32 @c()
  %7 = icmp ne i32 %6, 0
  br i1 %7, label %8, label %9

8:                                                ; preds = %5
  br label %1

9:                                                ; preds = %5
  br label %10

10:                                               ; preds = %9
  call void @D() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @divergent_exit() #0 {
  call void @A() #3
  br label %1

1:                                                ; preds = %5, %0
  call void @B() #3
  %2 = call i32 @c()
  %3 = icmp ne i32 %2, 0
  br i1 %3, label %4, label %5

4:                                                ; preds = %1
  br label %6

5:                                                ; preds = %1
  call void @C() #3
  br label %1

6:                                                ; preds = %4
  call void @D() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @counted_loop() #0 {
  %1 = alloca i32, align 4
  store i32 0, ptr %1, align 4
  br label %2

2:                                                ; preds = %10, %0
  %3 = load i32, ptr %1, align 4
  %4 = icmp slt i32 %3, 3
  br i1 %4, label %5, label %13

5:                                                ; preds = %2
  call void @A() #3
  %6 = call i32 @c()
  %7 = icmp ne i32 %6, 0
  br i1 %7, label %8, label %9

8:                                                ; preds = %5
  call void @B() #3
  br label %9

9:                                                ; preds = %8, %5
  br label %10

10:                                               ; preds = %9
  %11 = load i32, ptr %1, align 4
  %12 = add nsw i32 %11, 1
  store i32 %12, ptr %1, align 4
  br label %2, !llvm.loop !9

13:                                               ; preds = %2
  call void @C() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @switch_fallthrough() #0 {
  %1 = call i32 @c()
  switch i32 %1, label %5 [
    i32 0, label %2
    i32 1, label %3
    i32 2, label %4
  ]

2:                                                ; preds = %0
  call void @A() #3
  br label %3

3:                                                ; preds = %0, %2
  call void @B() #3
  br label %6

4:                                                ; preds = %0
  call void @C() #3
  br label %7

5:                                                ; preds = %0
  call void @D() #3
  br label %6

6:                                                ; preds = %5, %3
  call void @E() #3
  br label %7

7:                                                ; preds = %6, %4
  ret void
}

; Function Attrs: convergent
declare void @E() #1

; Function Attrs: noinline nounwind uwtable
define dso_local void @nested_if() #0 {
  %1 = call i32 @c()
  %2 = icmp ne i32 %1, 0
  br i1 %2, label %3, label %8

3:                                                ; preds = %0
  %4 = call i32 @c()
  %5 = icmp ne i32 %4, 0
  br i1 %5, label %6, label %7

6:                                                ; preds = %3
  call void @A() #3
  br label %7

7:                                                ; preds = %6, %3
  call void @B() #3
  br label %8

8:                                                ; preds = %7, %0
  call void @C() #3
  ret void
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @goto_forward() #0 {
  call void @A() #3
  %1 = call i32 @c()
  %2 = icmp ne i32 %1, 0
  br i1 %2, label %3, label %4

3:                                                ; preds = %0
  br label %5

4:                                                ; preds = %0
  call void @B() #3
  br label %5

5:                                                ; preds = %4, %3
  call void @C() #3
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
