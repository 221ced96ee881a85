; CLASS: c
; EXPECT: violated
; Control for review F5 (flow-sensitive capture): the slot's address is
; stored to @gp after the call, but in a loop, so from the second
; iteration on the call (no attributes) may write the slot through @gp:
; the value stored before the call may not be forwarded across it.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@gp = addrspace(1) global ptr addrspace(5) null
@out = addrspace(1) global [4 x i32] zeroinitializer
declare void @ext()

define amdgpu_kernel void @src() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  store i32 %i, ptr addrspace(5) %a, align 4
  call void @ext()
  %v = load i32, ptr addrspace(5) %a, align 4
  %p = getelementptr [4 x i32], ptr addrspace(1) @out, i32 0, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  store ptr addrspace(5) %a, ptr addrspace(1) @gp, align 4
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 2
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define amdgpu_kernel void @tgt() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  store i32 %i, ptr addrspace(5) %a, align 4
  call void @ext()
  %p = getelementptr [4 x i32], ptr addrspace(1) @out, i32 0, i32 %i
  store i32 %i, ptr addrspace(1) %p, align 4
  store ptr addrspace(5) %a, ptr addrspace(1) @gp, align 4
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 2
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
