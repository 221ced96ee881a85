; CLASS: c
; EXPECT: violated
; As c-select-of-alloca-and-global-passed-to-argmem-call, with a callee
; without memory attributes (so it may write any memory) and the pointer
; passed nocapture (so the alloca is not captured): the call may still
; write the alloca through its argument (issue 20, review F4).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
@g = addrspace(1) global i32 0
declare void @f(ptr nocapture)

define amdgpu_kernel void @src(i32 %n) {
entry:
  %a = alloca i32, addrspace(5)
  %c = icmp eq i32 %n, 0
  %fa = addrspacecast ptr addrspace(5) %a to ptr
  %gg = addrspacecast ptr addrspace(1) @g to ptr
  %p = select i1 %c, ptr %fa, ptr %gg
  store i32 1, ptr addrspace(5) %a
  call void @f(ptr nocapture %p)
  %v = load i32, ptr addrspace(5) %a
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i32 %n) {
entry:
  %a = alloca i32, addrspace(5)
  %c = icmp eq i32 %n, 0
  %fa = addrspacecast ptr addrspace(5) %a to ptr
  %gg = addrspacecast ptr addrspace(1) @g to ptr
  %p = select i1 %c, ptr %fa, ptr %gg
  store i32 1, ptr addrspace(5) %a
  call void @f(ptr nocapture %p)
  store i32 1, ptr addrspace(1) @out
  ret void
}
