; CLASS: g
; EXPECT: preserved
; A hand-written amdgcn module without a datalayout against opt's output
; of it (opt-19 -passes=gvn, which changes nothing here but adds the
; triple's datalayout: `; only: tgt`). The reference takes the triple's
; default layout, so the private pointer stored to @gp is 4 bytes on both
; sides (review3 H16's side note: main read 8 bytes in the reference and
; called the pair violated).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9" ; only: tgt
target triple = "amdgcn-amd-amdhsa"
@gp = addrspace(1) global ptr addrspace(5) null
@out = addrspace(1) global i32 0

define internal void @h() noinline {
  %p = load ptr addrspace(5), ptr addrspace(1) @gp
  store i32 7, ptr addrspace(5) %p
  ret void
}

define amdgpu_kernel void @src(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 1, ptr addrspace(5) %a
  call void @h()
  %v = load i32, ptr addrspace(5) %a
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp, align 4
  store i32 1, ptr addrspace(5) %a, align 4
  call void @h()
  %v = load i32, ptr addrspace(5) %a, align 4
  store i32 %v, ptr addrspace(1) @out, align 4
  ret void
}
