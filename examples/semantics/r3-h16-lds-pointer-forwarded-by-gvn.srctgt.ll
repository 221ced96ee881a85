; CLASS: g
; EXPECT: preserved
; EXPECT-smt: inconclusive
; EXPECT-explicit: inconclusive
; Real GVN (opt-19 -passes=gvn) on amdgcn: the kernel stores LDS @s1's
; address (a 32-bit pointer) to @gp3, loads it back, stores x through it
; and loads @s1; GVN forwards the pointer and the value. Main read the
; pointer loaded back as address 0 (review3 H16) and called it violated.
; As in address space 1 (64-bit pointers), the product proves it under
; the default engine; alone, the explicit engine's domains are inexact
; and the simulation relates no blocks (`store %p` against `store @s1`).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@s1 = internal addrspace(3) global i32 undef, align 4
@gp3 = addrspace(1) global ptr addrspace(3) null, align 4
@out = addrspace(1) global i32 0

define amdgpu_kernel void @src(i32 %x) {
entry:
  store ptr addrspace(3) @s1, ptr addrspace(1) @gp3, align 4
  %p = load ptr addrspace(3), ptr addrspace(1) @gp3, align 4
  store i32 %x, ptr addrspace(3) %p, align 4
  %v = load i32, ptr addrspace(3) @s1, align 4
  store i32 %v, ptr addrspace(1) @out, align 4
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  store ptr addrspace(3) @s1, ptr addrspace(1) @gp3, align 4
  store i32 %x, ptr addrspace(3) @s1, align 4
  store i32 %x, ptr addrspace(1) @out, align 4
  ret void
}
