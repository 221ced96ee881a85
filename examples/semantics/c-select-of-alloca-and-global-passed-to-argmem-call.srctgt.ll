; CLASS: c
; EXPECT: violated
; A flat pointer that selects between a private alloca and a global is
; passed to a call that may write its argument's object
; (memory(argmem: write)): when the select picks the alloca the call may
; write it, so the value stored to the alloca may not be forwarded across
; the call (issue 20, review F4; before the fix the pair was preserved: the
; clobber took its space from the pointer's type, flat = global, and missed
; the alloca's private bytes).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
@g = addrspace(1) global i32 0
declare void @f(ptr nocapture) memory(argmem: write)

define amdgpu_kernel void @src(i1 %c) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %fa = addrspacecast ptr addrspace(5) %a to ptr
  store i32 1, ptr addrspace(5) %a
  %p = select i1 %c, ptr %fa, ptr addrspacecast (ptr addrspace(1) @g to ptr)
  call void @f(ptr %p)
  %v = load i32, ptr addrspace(5) %a
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i1 %c) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %fa = addrspacecast ptr addrspace(5) %a to ptr
  store i32 1, ptr addrspace(5) %a
  %p = select i1 %c, ptr %fa, ptr addrspacecast (ptr addrspace(1) @g to ptr)
  call void @f(ptr %p)
  store i32 1, ptr addrspace(1) @out
  ret void
}
