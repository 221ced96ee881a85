; ModuleID = 'kernel.cl'
source_filename = "kernel.cl"
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@__oclc_ABI_version = weak_odr hidden local_unnamed_addr addrspace(4) constant i32 500

; Function Attrs: convergent noinline norecurse nounwind
define protected amdgpu_kernel void @reduce(ptr addrspace(1) noundef align 4 %0, ptr addrspace(3) noundef align 4 %1) #0 !kernel_arg_addr_space !6 !kernel_arg_access_qual !7 !kernel_arg_type !8 !kernel_arg_base_type !8 !kernel_arg_type_qual !9 {
  %3 = alloca ptr addrspace(1), align 8, addrspace(5)
  %4 = alloca ptr addrspace(3), align 4, addrspace(5)
  %5 = alloca i64, align 8, addrspace(5)
  %6 = alloca i64, align 8, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %3, align 8
  store ptr addrspace(3) %1, ptr addrspace(5) %4, align 4
  %7 = call i64 @_Z12get_local_idj(i32 noundef 0) #4
  store i64 %7, ptr addrspace(5) %5, align 8
  %8 = load i64, ptr addrspace(5) %5, align 8
  %9 = trunc i64 %8 to i32
  %10 = load ptr addrspace(3), ptr addrspace(5) %4, align 4
  %11 = load i64, ptr addrspace(5) %5, align 8
  %12 = getelementptr inbounds i32, ptr addrspace(3) %10, i64 %11
  store i32 %9, ptr addrspace(3) %12, align 4
  call void @_Z7barrierj(i32 noundef 1) #5
  %13 = call i64 @_Z14get_local_sizej(i32 noundef 0) #4
  %14 = udiv i64 %13, 2
  store i64 %14, ptr addrspace(5) %6, align 8
  br label %15

15:                                               ; preds = %35, %2
  %16 = load i64, ptr addrspace(5) %6, align 8
  %17 = icmp ugt i64 %16, 0
  br i1 %17, label %18, label %38

18:                                               ; preds = %15
  %19 = load i64, ptr addrspace(5) %5, align 8
  %20 = load i64, ptr addrspace(5) %6, align 8
  %21 = icmp ult i64 %19, %20
  br i1 %21, label %22, label %34

22:                                               ; preds = %18
  %23 = load ptr addrspace(3), ptr addrspace(5) %4, align 4
  %24 = load i64, ptr addrspace(5) %5, align 8
  %25 = load i64, ptr addrspace(5) %6, align 8
  %26 = add i64 %24, %25
  %27 = getelementptr inbounds i32, ptr addrspace(3) %23, i64 %26
  %28 = load i32, ptr addrspace(3) %27, align 4
  %29 = load ptr addrspace(3), ptr addrspace(5) %4, align 4
  %30 = load i64, ptr addrspace(5) %5, align 8
  %31 = getelementptr inbounds i32, ptr addrspace(3) %29, i64 %30
  %32 = load i32, ptr addrspace(3) %31, align 4
  %33 = add nsw i32 %32, %28
  store i32 %33, ptr addrspace(3) %31, align 4
  br label %34

34:                                               ; preds = %22, %18
  call void @_Z7barrierj(i32 noundef 1) #5
  br label %35

35:                                               ; preds = %34
  %36 = load i64, ptr addrspace(5) %6, align 8
  %37 = lshr i64 %36, 1
  store i64 %37, ptr addrspace(5) %6, align 8
  br label %15

38:                                               ; preds = %15
  %39 = load i64, ptr addrspace(5) %5, align 8
  %40 = icmp eq i64 %39, 0
  br i1 %40, label %41, label %48

41:                                               ; preds = %38
  %42 = load ptr addrspace(3), ptr addrspace(5) %4, align 4
  %43 = getelementptr inbounds i32, ptr addrspace(3) %42, i64 0
  %44 = load i32, ptr addrspace(3) %43, align 4
  %45 = load ptr addrspace(1), ptr addrspace(5) %3, align 8
  %46 = call i64 @_Z12get_group_idj(i32 noundef 0) #4
  %47 = getelementptr inbounds i32, ptr addrspace(1) %45, i64 %46
  store i32 %44, ptr addrspace(1) %47, align 4
  br label %48

48:                                               ; preds = %41, %38
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare hidden i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind
declare hidden void @_Z7barrierj(i32 noundef) #2

; Function Attrs: convergent nounwind willreturn memory(none)
declare hidden i64 @_Z14get_local_sizej(i32 noundef) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare hidden i64 @_Z12get_group_idj(i32 noundef) #1

; Function Attrs: convergent noinline norecurse nounwind
define protected amdgpu_kernel void @loop_exit(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !10 !kernel_arg_access_qual !7 !kernel_arg_type !11 !kernel_arg_base_type !11 !kernel_arg_type_qual !9 {
  %3 = alloca ptr addrspace(1), align 8, addrspace(5)
  %4 = alloca i32, align 4, addrspace(5)
  %5 = alloca i32, align 4, addrspace(5)
  %6 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %3, align 8
  store i32 %1, ptr addrspace(5) %4, align 4
  %7 = call i64 @_Z12get_local_idj(i32 noundef 0) #4
  %8 = trunc i64 %7 to i32
  store i32 %8, ptr addrspace(5) %5, align 4
  store i32 0, ptr addrspace(5) %6, align 4
  br label %9

9:                                                ; preds = %19, %2
  %10 = load i32, ptr addrspace(5) %6, align 4
  %11 = load i32, ptr addrspace(5) %4, align 4
  %12 = icmp slt i32 %10, %11
  br i1 %12, label %13, label %22

13:                                               ; preds = %9
  %14 = load i32, ptr addrspace(5) %5, align 4
  %15 = load i32, ptr addrspace(5) %6, align 4
  %16 = icmp eq i32 %14, %15
  br i1 %16, label %17, label %18

17:                                               ; preds = %13
  br label %22

18:                                               ; preds = %13
  call void @op() #5
  br label %19

19:                                               ; preds = %18
  %20 = load i32, ptr addrspace(5) %6, align 4
  %21 = add nsw i32 %20, 1
  store i32 %21, ptr addrspace(5) %6, align 4
  br label %9

22:                                               ; preds = %17, %9
  call void @op() #5
  %23 = load i32, ptr addrspace(5) %6, align 4
  %24 = load ptr addrspace(1), ptr addrspace(5) %3, align 8
  %25 = load i32, ptr addrspace(5) %5, align 4
  %26 = sext i32 %25 to i64
  %27 = getelementptr inbounds i32, ptr addrspace(1) %24, i64 %26
  store i32 %23, ptr addrspace(1) %27, align 4
  ret void
}

; Function Attrs: convergent nounwind
declare hidden void @op() #2

; Function Attrs: convergent noinline norecurse nounwind
define hidden i32 @helper(i32 noundef %0) #3 {
  %2 = alloca i32, align 4, addrspace(5)
  %3 = alloca i32, align 4, addrspace(5)
  store i32 %0, ptr addrspace(5) %3, align 4
  %4 = load i32, ptr addrspace(5) %3, align 4
  %5 = and i32 %4, 3
  switch i32 %5, label %9 [
    i32 0, label %6
    i32 1, label %8
  ]

6:                                                ; preds = %1
  %7 = call i32 @c() #5
  store i32 %7, ptr addrspace(5) %2, align 4
  br label %11

8:                                                ; preds = %1
  call void @op() #5
  store i32 1, ptr addrspace(5) %2, align 4
  br label %11

9:                                                ; preds = %1
  %10 = load i32, ptr addrspace(5) %3, align 4
  store i32 %10, ptr addrspace(5) %2, align 4
  br label %11

11:                                               ; preds = %9, %8, %6
  %12 = load i32, ptr addrspace(5) %2, align 4
  ret i32 %12
}

; Function Attrs: convergent nounwind
declare hidden i32 @c() #2

; Function Attrs: convergent noinline norecurse nounwind
define protected amdgpu_kernel void @calls_helper(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !12 !kernel_arg_access_qual !13 !kernel_arg_type !14 !kernel_arg_base_type !14 !kernel_arg_type_qual !15 {
  %2 = alloca ptr addrspace(1), align 8, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %2, align 8
  %3 = call i64 @_Z12get_local_idj(i32 noundef 0) #4
  %4 = trunc i64 %3 to i32
  %5 = call i32 @helper(i32 noundef %4) #5
  %6 = load ptr addrspace(1), ptr addrspace(5) %2, align 8
  %7 = call i64 @_Z13get_global_idj(i32 noundef 0) #4
  %8 = getelementptr inbounds i32, ptr addrspace(1) %6, i64 %7
  store i32 %5, ptr addrspace(1) %8, align 4
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare hidden i64 @_Z13get_global_idj(i32 noundef) #1

attributes #0 = { convergent noinline norecurse nounwind "amdgpu-flat-work-group-size"="1,256" "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx900" "target-features"="+16-bit-insts,+ci-insts,+dpp,+gfx8-insts,+gfx9-insts,+s-memrealtime,+s-memtime-inst,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #1 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx900" "target-features"="+16-bit-insts,+ci-insts,+dpp,+gfx8-insts,+gfx9-insts,+s-memrealtime,+s-memtime-inst,+wavefrontsize64" }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx900" "target-features"="+16-bit-insts,+ci-insts,+dpp,+gfx8-insts,+gfx9-insts,+s-memrealtime,+s-memtime-inst,+wavefrontsize64" }
attributes #3 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx900" "target-features"="+16-bit-insts,+ci-insts,+dpp,+gfx8-insts,+gfx9-insts,+s-memrealtime,+s-memtime-inst,+wavefrontsize64" }
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
