; ModuleID = 'kernel_amdgcn.ll'
source_filename = "kernel.cl"
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@__oclc_ABI_version = weak_odr hidden local_unnamed_addr addrspace(4) constant i32 500

; Function Attrs: convergent noinline norecurse nounwind
define protected amdgpu_kernel void @reduce(ptr addrspace(1) nocapture noundef writeonly align 4 %0, ptr addrspace(3) nocapture noundef align 4 %1) local_unnamed_addr #0 !kernel_arg_addr_space !6 !kernel_arg_access_qual !7 !kernel_arg_type !8 !kernel_arg_base_type !8 !kernel_arg_type_qual !9 {
  %3 = tail call i64 @_Z12get_local_idj(i32 noundef 0) #4
  %4 = trunc i64 %3 to i32
  %5 = getelementptr inbounds i32, ptr addrspace(3) %1, i32 %4
  store i32 %4, ptr addrspace(3) %5, align 4
  tail call void @_Z7barrierj(i32 noundef 1) #5
  %6 = tail call i64 @_Z14get_local_sizej(i32 noundef 0) #4
  %.not16 = icmp ult i64 %6, 2
  br i1 %.not16, label %._crit_edge, label %.lr.ph

.lr.ph:                                           ; preds = %2, %15
  %.017.in = phi i64 [ %.017, %15 ], [ %6, %2 ]
  %.017 = lshr i64 %.017.in, 1
  %7 = icmp ult i64 %3, %.017
  br i1 %7, label %8, label %15

8:                                                ; preds = %.lr.ph
  %9 = add nuw i64 %.017, %3
  %10 = trunc i64 %9 to i32
  %11 = getelementptr inbounds i32, ptr addrspace(3) %1, i32 %10
  %12 = load i32, ptr addrspace(3) %11, align 4
  %13 = load i32, ptr addrspace(3) %5, align 4
  %14 = add nsw i32 %13, %12
  store i32 %14, ptr addrspace(3) %5, align 4
  br label %15

15:                                               ; preds = %8, %.lr.ph
  tail call void @_Z7barrierj(i32 noundef 1) #5
  %.not = icmp ult i64 %.017.in, 4
  br i1 %.not, label %._crit_edge, label %.lr.ph

._crit_edge:                                      ; preds = %15, %2
  %16 = icmp eq i64 %3, 0
  br i1 %16, label %17, label %21

17:                                               ; preds = %._crit_edge
  %18 = load i32, ptr addrspace(3) %1, align 4
  %19 = tail call i64 @_Z12get_group_idj(i32 noundef 0) #4
  %20 = getelementptr inbounds i32, ptr addrspace(1) %0, i64 %19
  store i32 %18, ptr addrspace(1) %20, align 4
  br label %21

21:                                               ; preds = %17, %._crit_edge
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @_Z12get_local_idj(i32 noundef) local_unnamed_addr #1

; Function Attrs: convergent nounwind
declare hidden void @_Z7barrierj(i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @_Z14get_local_sizej(i32 noundef) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @_Z12get_group_idj(i32 noundef) local_unnamed_addr #1

; Function Attrs: convergent noinline norecurse nounwind
define protected amdgpu_kernel void @loop_exit(ptr addrspace(1) nocapture noundef writeonly align 4 %0, i32 noundef %1) local_unnamed_addr #0 !kernel_arg_addr_space !10 !kernel_arg_access_qual !7 !kernel_arg_type !11 !kernel_arg_base_type !11 !kernel_arg_type_qual !9 {
  %3 = tail call i64 @_Z12get_local_idj(i32 noundef 0) #4
  %4 = trunc i64 %3 to i32
  %5 = icmp slt i32 %1, 1
  %6 = icmp eq i32 %4, 0
  %or.cond7 = select i1 %5, i1 true, i1 %6
  br i1 %or.cond7, label %._crit_edge, label %.lr.ph

.lr.ph:                                           ; preds = %2, %.lr.ph
  %.08 = phi i32 [ %7, %.lr.ph ], [ 0, %2 ]
  tail call void @op() #5
  %7 = add nuw nsw i32 %.08, 1
  %8 = icmp sge i32 %7, %1
  %9 = icmp eq i32 %7, %4
  %or.cond = select i1 %8, i1 true, i1 %9
  br i1 %or.cond, label %._crit_edge, label %.lr.ph

._crit_edge:                                      ; preds = %.lr.ph, %2
  %.0.lcssa = phi i32 [ 0, %2 ], [ %7, %.lr.ph ]
  tail call void @op() #5
  %sext = shl i64 %3, 32
  %10 = ashr exact i64 %sext, 30
  %11 = getelementptr inbounds i8, ptr addrspace(1) %0, i64 %10
  store i32 %.0.lcssa, ptr addrspace(1) %11, align 4
  ret void
}

; Function Attrs: convergent nounwind
declare hidden void @op() local_unnamed_addr #2

; Function Attrs: convergent noinline norecurse nounwind
define hidden i32 @helper(i32 noundef %0) local_unnamed_addr #3 {
  %2 = and i32 %0, 3
  switch i32 %2, label %6 [
    i32 0, label %3
    i32 1, label %5
  ]

3:                                                ; preds = %1
  %4 = tail call i32 @c() #5
  br label %6

5:                                                ; preds = %1
  tail call void @op() #5
  br label %6

6:                                                ; preds = %1, %5, %3
  %.0 = phi i32 [ 1, %5 ], [ %4, %3 ], [ %0, %1 ]
  ret i32 %.0
}

; Function Attrs: convergent nounwind
declare hidden i32 @c() local_unnamed_addr #2

; Function Attrs: convergent noinline norecurse nounwind
define protected amdgpu_kernel void @calls_helper(ptr addrspace(1) nocapture noundef writeonly align 4 %0) local_unnamed_addr #0 !kernel_arg_addr_space !12 !kernel_arg_access_qual !13 !kernel_arg_type !14 !kernel_arg_base_type !14 !kernel_arg_type_qual !15 {
  %2 = tail call i64 @_Z12get_local_idj(i32 noundef 0) #4
  %3 = trunc i64 %2 to i32
  %4 = tail call i32 @helper(i32 noundef %3) #5
  %5 = tail call i64 @_Z13get_global_idj(i32 noundef 0) #4
  %6 = getelementptr inbounds i32, ptr addrspace(1) %0, i64 %5
  store i32 %4, ptr addrspace(1) %6, align 4
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @_Z13get_global_idj(i32 noundef) local_unnamed_addr #1

attributes #0 = { convergent noinline norecurse nounwind "amdgpu-flat-work-group-size"="1,256" "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx900" "target-features"="+16-bit-insts,+ci-insts,+dpp,+gfx8-insts,+gfx9-insts,+s-memrealtime,+s-memtime-inst,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #1 = { convergent mustprogress nofree nounwind willreturn memory(none) "amdgpu-waves-per-eu"="4,10" "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx900" "target-features"="+16-bit-insts,+ci-insts,+dpp,+gfx8-insts,+gfx9-insts,+s-memrealtime,+s-memtime-inst,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #2 = { convergent nounwind "amdgpu-waves-per-eu"="4,10" "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx900" "target-features"="+16-bit-insts,+ci-insts,+dpp,+gfx8-insts,+gfx9-insts,+s-memrealtime,+s-memtime-inst,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #3 = { convergent noinline norecurse nounwind "amdgpu-waves-per-eu"="4,10" "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx900" "target-features"="+16-bit-insts,+ci-insts,+dpp,+gfx8-insts,+gfx9-insts,+s-memrealtime,+s-memtime-inst,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #4 = { convergent nounwind willreturn memory(none) }
attributes #5 = { convergent nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!opencl.ocl.version = !{!4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{i32 2, i32 0}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = !{i32 1, i32 3}
!7 = !{!"none", !"none"}
!8 = !{!"int*", !"int*"}
!9 = !{!"", !""}
!10 = !{i32 1, i32 0}
!11 = !{!"int*", !"int"}
!12 = !{i32 1}
!13 = !{!"none"}
!14 = !{!"int*"}
!15 = !{!""}
