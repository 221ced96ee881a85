; CLASS: g
; EXPECT: preserved
; InstCombine's fold of `icmp eq` of two distinct private allocas and of
; two distinct LDS globals to false (amdgcn, 32-bit private and LDS
; pointers; opt-19 -passes=instcombine), with the private address still
; stored as an integer: distinct objects of a 32-bit space are distinct as
; pointers and as integers (review3 H16).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@s1 = internal addrspace(3) global i32 undef, align 4
@s2 = internal addrspace(3) global i32 undef, align 4
@out = addrspace(1) global i32 0
@out2 = addrspace(1) global i32 0
@outa = addrspace(1) global i32 0

define amdgpu_kernel void @src(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %b = alloca i32, align 4, addrspace(5)
  store volatile i32 %x, ptr addrspace(5) %a
  store volatile i32 %x, ptr addrspace(5) %b
  %c = icmp eq ptr addrspace(5) %a, %b
  %z = zext i1 %c to i32
  store i32 %z, ptr addrspace(1) @out
  %d = icmp eq ptr addrspace(3) @s1, @s2
  %y = zext i1 %d to i32
  store i32 %y, ptr addrspace(1) @out2
  %ai = ptrtoint ptr addrspace(5) %a to i32
  store i32 %ai, ptr addrspace(1) @outa
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %b = alloca i32, align 4, addrspace(5)
  store volatile i32 %x, ptr addrspace(5) %a, align 4
  store volatile i32 %x, ptr addrspace(5) %b, align 4
  store i32 0, ptr addrspace(1) @out, align 4
  store i32 0, ptr addrspace(1) @out2, align 4
  %ai = ptrtoint ptr addrspace(5) %a to i32
  store i32 %ai, ptr addrspace(1) @outa, align 4
  ret void
}
