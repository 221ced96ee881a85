; ModuleID = 'kernel.cu'
source_filename = "kernel.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = dso_local addrspace(3) global [128 x i32] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local void @reduce(ptr noundef %0, i32 noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %7 = call noundef i32 @_ZL5tid_xv() #5
  store i32 %7, ptr %5, align 4
  %8 = load i32, ptr %5, align 4
  %9 = load i32, ptr %5, align 4
  %10 = zext i32 %9 to i64
  %11 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %10
  store i32 %8, ptr %11, align 4
  call void @llvm.nvvm.barrier0()
  store i32 64, ptr %6, align 4
  br label %12

12:                                               ; preds = %32, %2
  %13 = load i32, ptr %6, align 4
  %14 = icmp ugt i32 %13, 0
  br i1 %14, label %15, label %35

15:                                               ; preds = %12
  %16 = load i32, ptr %5, align 4
  %17 = load i32, ptr %6, align 4
  %18 = icmp ult i32 %16, %17
  br i1 %18, label %19, label %31

19:                                               ; preds = %15
  %20 = load i32, ptr %5, align 4
  %21 = load i32, ptr %6, align 4
  %22 = add i32 %20, %21
  %23 = zext i32 %22 to i64
  %24 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %23
  %25 = load i32, ptr %24, align 4
  %26 = load i32, ptr %5, align 4
  %27 = zext i32 %26 to i64
  %28 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %27
  %29 = load i32, ptr %28, align 4
  %30 = add nsw i32 %29, %25
  store i32 %30, ptr %28, align 4
  br label %31

31:                                               ; preds = %19, %15
  call void @llvm.nvvm.barrier0()
  br label %32

32:                                               ; preds = %31
  %33 = load i32, ptr %6, align 4
  %34 = lshr i32 %33, 1
  store i32 %34, ptr %6, align 4
  br label %12, !llvm.loop !7

35:                                               ; preds = %12
  %36 = load i32, ptr %5, align 4
  %37 = icmp eq i32 %36, 0
  br i1 %37, label %38, label %42

38:                                               ; preds = %35
  %39 = load i32, ptr addrspacecast (ptr addrspace(3) @tile to ptr), align 4
  %40 = load ptr, ptr %3, align 8
  %41 = getelementptr inbounds i32, ptr %40, i64 0
  store i32 %39, ptr %41, align 4
  br label %42

42:                                               ; preds = %38, %35
  ret void
}

; Function Attrs: convergent mustprogress noinline nounwind
define internal noundef i32 @_ZL5tid_xv() #1 {
  %1 = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %1
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #2

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local void @divergent_exit(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
  %5 = call noundef i32 @_ZL5tid_xv() #5
  store i32 %5, ptr %3, align 4
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %16, %1
  %7 = load i32, ptr %4, align 4
  %8 = load i32, ptr %2, align 4
  %9 = icmp slt i32 %7, %8
  br i1 %9, label %10, label %19

10:                                               ; preds = %6
  %11 = load i32, ptr %3, align 4
  %12 = load i32, ptr %4, align 4
  %13 = icmp eq i32 %11, %12
  br i1 %13, label %14, label %15

14:                                               ; preds = %10
  br label %19

15:                                               ; preds = %10
  call void @op() #5
  br label %16

16:                                               ; preds = %15
  %17 = load i32, ptr %4, align 4
  %18 = add nsw i32 %17, 1
  store i32 %18, ptr %4, align 4
  br label %6, !llvm.loop !9

19:                                               ; preds = %14, %6
  call void @op() #5
  call void @llvm.nvvm.bar.sync(i32 0)
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @op() #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #2

; Function Attrs: convergent mustprogress noinline nounwind
define dso_local i32 @helper(i32 noundef %0) #1 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 %0, ptr %3, align 4
  %4 = call i32 @c() #5
  %5 = icmp ne i32 %4, 0
  br i1 %5, label %6, label %9

6:                                                ; preds = %1
  %7 = load i32, ptr %3, align 4
  %8 = add nsw i32 %7, 1
  store i32 %8, ptr %2, align 4
  br label %11

9:                                                ; preds = %1
  call void @op() #5
  %10 = load i32, ptr %3, align 4
  store i32 %10, ptr %2, align 4
  br label %11

11:                                               ; preds = %9, %6
  %12 = load i32, ptr %2, align 4
  ret i32 %12
}

; Function Attrs: convergent nounwind
declare dso_local i32 @c() #3

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local void @calls_helper(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = call noundef i32 @_ZL5tid_xv() #5
  %4 = call i32 @helper(i32 noundef %3) #5
  %5 = load ptr, ptr %2, align 8
  %6 = call noundef i32 @_ZL5tid_xv() #5
  %7 = zext i32 %6 to i64
  %8 = getelementptr inbounds i32, ptr %5, i64 %7
  store i32 %4, ptr %8, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx42,+sm_70" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress noinline nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx42,+sm_70" }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx42,+sm_70" }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { convergent nounwind }

!nvvm.annotations = !{!0, !1, !2}
!llvm.module.flags = !{!3, !4, !5}
!llvm.ident = !{!6}

!0 = !{ptr @reduce, !"kernel", i32 1}
!1 = !{ptr @divergent_exit, !"kernel", i32 1}
!2 = !{ptr @calls_helper, !"kernel", i32 1}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.mustprogress"}
!9 = distinct !{!9, !8}
