; CLASS: g
; EXPECT: violated
; The kernel stores its private alloca's address (a 32-bit pointer) to
; @gp and x (the target: x + 1) into the alloca, then calls @h, which
; loads the pointer back, loads through it and stores the value to @out:
; out is x against x + 1. Main read the pointer loaded back as 0 (the
; object's base truncated to 32 bits), not the alloca, and called this
; preserved (review3 H16).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@gp = addrspace(1) global ptr addrspace(5) null
@out = addrspace(1) global i32 0

define internal void @h() noinline {
  %p = load ptr addrspace(5), ptr addrspace(1) @gp
  %v = load i32, ptr addrspace(5) %p
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @src(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 %x, ptr addrspace(5) %a
  call void @h()
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  %x1 = add i32 %x, 1
  store i32 %x1, ptr addrspace(5) %a
  call void @h()
  ret void
}
