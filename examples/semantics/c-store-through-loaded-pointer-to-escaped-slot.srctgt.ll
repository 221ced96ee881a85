; CLASS: c
; EXPECT: inconclusive
; EXPECT-MESSAGE: through a pointer of unknown origin
; Review2 G7 (was preserved): %q, loaded back from @gp, is the escaped
; slot's address, so the store of 7 through it reaches the slot and the
; reference stores 7 to @out; the target forwards the slot's 1 (wrong).
; The model sent the store elsewhere; a load or store through a pointer of
; unknown origin that may be private, where an alloca whose address
; escaped may have been captured before it, is now refused
; (capture.rs, unknown_private_access): inconclusive, not preserved.
; (opt-19 gvn's correct output, storing 7, was a false alarm; it is
; inconclusive too.)
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@gp = addrspace(1) global ptr addrspace(5) null
@out = addrspace(1) global i32 0

define amdgpu_kernel void @src() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 1, ptr addrspace(5) %a
  %q = load ptr addrspace(5), ptr addrspace(1) @gp
  store i32 7, ptr addrspace(5) %q
  %v = load i32, ptr addrspace(5) %a
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 1, ptr addrspace(5) %a
  %q = load ptr addrspace(5), ptr addrspace(1) @gp
  store i32 7, ptr addrspace(5) %q
  store i32 1, ptr addrspace(1) @out
  ret void
}
