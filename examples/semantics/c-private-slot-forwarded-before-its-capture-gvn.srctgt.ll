; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the stored value's domain is inexact,
; class m; the product decides the pair.)
; opt-19 -passes=gvn's own output (review F5; was violated, a false
; alarm): the slot's address is stored to a global only after the first
; call, so that call cannot write the slot and GVN legally forwards the
; stored 1 across it. A call clobbers a captured alloca only where a
; capture may have run before it (model/llvm/src/to_ir/capture.rs).
; Control: c-private-slot-captured-in-loop-after-call-forwarded.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@gp = addrspace(1) global ptr addrspace(5) null
@out = addrspace(1) global i32 0
declare void @ext()

define amdgpu_kernel void @src() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store i32 1, ptr addrspace(5) %a, align 4
  call void @ext()
  %v = load i32, ptr addrspace(5) %a, align 4
  store i32 %v, ptr addrspace(1) @out, align 4
  store ptr addrspace(5) %a, ptr addrspace(1) @gp, align 4
  call void @ext()
  ret void
}

define amdgpu_kernel void @tgt() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store i32 1, ptr addrspace(5) %a, align 4
  call void @ext()
  store i32 1, ptr addrspace(1) @out, align 4
  store ptr addrspace(5) %a, ptr addrspace(1) @gp, align 4
  call void @ext()
  ret void
}
