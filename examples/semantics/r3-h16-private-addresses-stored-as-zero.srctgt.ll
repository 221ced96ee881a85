; CLASS: g
; EXPECT: violated
; Two live private allocas (amdgcn, `p5:32:32`): the reference stores
; their addresses as 32-bit integers, the target stores 0 and 0. Two live
; objects have distinct addresses, so both cannot be 0 (review3 H16: main
; gave every object of a 32-bit space the address 0 as a value, since its
; base was a multiple of 2^32, and called this preserved).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@outa = addrspace(1) global i32 0
@outb = addrspace(1) global i32 0

define amdgpu_kernel void @src(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %b = alloca i32, align 4, addrspace(5)
  store volatile i32 %x, ptr addrspace(5) %a
  store volatile i32 %x, ptr addrspace(5) %b
  %ai = ptrtoint ptr addrspace(5) %a to i32
  %bi = ptrtoint ptr addrspace(5) %b to i32
  store i32 %ai, ptr addrspace(1) @outa
  store i32 %bi, ptr addrspace(1) @outb
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %b = alloca i32, align 4, addrspace(5)
  store volatile i32 %x, ptr addrspace(5) %a
  store volatile i32 %x, ptr addrspace(5) %b
  store i32 0, ptr addrspace(1) @outa
  store i32 0, ptr addrspace(1) @outb
  ret void
}
