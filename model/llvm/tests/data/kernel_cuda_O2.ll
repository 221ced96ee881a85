; ModuleID = 'kernel_cuda.ll'
source_filename = "kernel.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = dso_local local_unnamed_addr addrspace(3) global [128 x i32] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local void @reduce(ptr nocapture noundef writeonly %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = tail call fastcc noundef i32 @_ZL5tid_xv() #7
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %4
  store i32 %3, ptr %5, align 4
  tail call void @llvm.nvvm.barrier0()
  %6 = icmp ult i32 %3, 64
  br i1 %6, label %7, label %14

7:                                                ; preds = %2
  %8 = or disjoint i32 %3, 64
  %9 = zext nneg i32 %8 to i64
  %10 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %9
  %11 = load i32, ptr %10, align 4
  %12 = load i32, ptr %5, align 4
  %13 = add nsw i32 %12, %11
  store i32 %13, ptr %5, align 4
  br label %14

14:                                               ; preds = %7, %2
  tail call void @llvm.nvvm.barrier0()
  %15 = icmp ult i32 %3, 32
  br i1 %15, label %16, label %23

16:                                               ; preds = %14
  %17 = or disjoint i32 %3, 32
  %18 = zext nneg i32 %17 to i64
  %19 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %18
  %20 = load i32, ptr %19, align 4
  %21 = load i32, ptr %5, align 4
  %22 = add nsw i32 %21, %20
  store i32 %22, ptr %5, align 4
  br label %23

23:                                               ; preds = %16, %14
  tail call void @llvm.nvvm.barrier0()
  %24 = icmp ult i32 %3, 16
  br i1 %24, label %25, label %32

25:                                               ; preds = %23
  %26 = or disjoint i32 %3, 16
  %27 = zext nneg i32 %26 to i64
  %28 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %27
  %29 = load i32, ptr %28, align 4
  %30 = load i32, ptr %5, align 4
  %31 = add nsw i32 %30, %29
  store i32 %31, ptr %5, align 4
  br label %32

32:                                               ; preds = %25, %23
  tail call void @llvm.nvvm.barrier0()
  %33 = icmp ult i32 %3, 8
  br i1 %33, label %34, label %41

34:                                               ; preds = %32
  %35 = or disjoint i32 %3, 8
  %36 = zext nneg i32 %35 to i64
  %37 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %36
  %38 = load i32, ptr %37, align 4
  %39 = load i32, ptr %5, align 4
  %40 = add nsw i32 %39, %38
  store i32 %40, ptr %5, align 4
  br label %41

41:                                               ; preds = %34, %32
  tail call void @llvm.nvvm.barrier0()
  %42 = icmp ult i32 %3, 4
  br i1 %42, label %43, label %50

43:                                               ; preds = %41
  %44 = or disjoint i32 %3, 4
  %45 = zext nneg i32 %44 to i64
  %46 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %45
  %47 = load i32, ptr %46, align 4
  %48 = load i32, ptr %5, align 4
  %49 = add nsw i32 %48, %47
  store i32 %49, ptr %5, align 4
  br label %50

50:                                               ; preds = %43, %41
  tail call void @llvm.nvvm.barrier0()
  %51 = icmp ult i32 %3, 2
  br i1 %51, label %52, label %59

52:                                               ; preds = %50
  %53 = or disjoint i32 %3, 2
  %54 = zext nneg i32 %53 to i64
  %55 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %54
  %56 = load i32, ptr %55, align 4
  %57 = load i32, ptr %5, align 4
  %58 = add nsw i32 %57, %56
  store i32 %58, ptr %5, align 4
  br label %59

59:                                               ; preds = %52, %50
  tail call void @llvm.nvvm.barrier0()
  %60 = icmp eq i32 %3, 0
  br i1 %60, label %61, label %65

61:                                               ; preds = %59
  %62 = load i32, ptr getelementptr inbounds (i8, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 4), align 4
  %63 = load i32, ptr %5, align 4
  %64 = add nsw i32 %63, %62
  store i32 %64, ptr %5, align 4
  br label %65

65:                                               ; preds = %61, %59
  tail call void @llvm.nvvm.barrier0()
  %66 = icmp eq i32 %3, 0
  br i1 %66, label %67, label %69

67:                                               ; preds = %65
  %68 = load i32, ptr addrspacecast (ptr addrspace(3) @tile to ptr), align 4
  store i32 %68, ptr %0, align 4
  br label %69

69:                                               ; preds = %67, %65
  ret void
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(none)
define internal fastcc noundef range(i32 0, 1024) i32 @_ZL5tid_xv() unnamed_addr #1 {
  %1 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %1
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #2

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local void @divergent_exit(i32 noundef %0) local_unnamed_addr #0 {
  %2 = tail call fastcc noundef i32 @_ZL5tid_xv() #7
  %3 = icmp slt i32 %0, 1
  %4 = icmp eq i32 %2, 0
  %or.cond5 = or i1 %3, %4
  br i1 %or.cond5, label %._crit_edge, label %.lr.ph.preheader

.lr.ph.preheader:                                 ; preds = %1
  %5 = add nsw i32 %2, -1
  %6 = add nsw i32 %0, -1
  %umin = tail call i32 @llvm.umin.i32(i32 %5, i32 %6)
  br label %.lr.ph

.lr.ph:                                           ; preds = %.lr.ph.preheader, %.lr.ph
  %.06 = phi i32 [ %7, %.lr.ph ], [ 0, %.lr.ph.preheader ]
  tail call void @op() #8
  %7 = add nuw nsw i32 %.06, 1
  %exitcond = icmp eq i32 %.06, %umin
  br i1 %exitcond, label %._crit_edge, label %.lr.ph, !llvm.loop !7

._crit_edge:                                      ; preds = %.lr.ph, %1
  tail call void @op() #8
  tail call void @llvm.nvvm.bar.sync(i32 0)
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @op() local_unnamed_addr #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #2

; Function Attrs: convergent mustprogress noinline nounwind
define dso_local i32 @helper(i32 noundef %0) local_unnamed_addr #4 {
  %2 = tail call i32 @c() #8
  %.not = icmp eq i32 %2, 0
  br i1 %.not, label %5, label %3

3:                                                ; preds = %1
  %4 = add nsw i32 %0, 1
  br label %6

5:                                                ; preds = %1
  tail call void @op() #8
  br label %6

6:                                                ; preds = %5, %3
  %.0 = phi i32 [ %4, %3 ], [ %0, %5 ]
  ret i32 %.0
}

; Function Attrs: convergent nounwind
declare dso_local i32 @c() local_unnamed_addr #3

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local void @calls_helper(ptr nocapture noundef writeonly %0) local_unnamed_addr #0 {
  %2 = tail call fastcc noundef i32 @_ZL5tid_xv() #7
  %3 = tail call i32 @helper(i32 noundef %2) #8
  %4 = zext nneg i32 %2 to i64
  %5 = getelementptr inbounds i32, ptr %0, i64 %4
  store i32 %3, ptr %5, align 4
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #5

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.umin.i32(i32, i32) #6

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx42,+sm_70" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx42,+sm_70" }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx42,+sm_70" }
attributes #4 = { convergent mustprogress noinline nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx42,+sm_70" }
attributes #5 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #7 = { nounwind }
attributes #8 = { convergent nounwind }

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
