; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of the call's result is
; inexact, since it reaches a stored value; the product answers.)
; Review F1 for a call without attributes (an event that may read and
; write any memory; was preserved): the target changes the value stored to
; the captured slot before the call. The call's events carry its arguments
; only, so its result is the function oracle `rd.reads` of a fresh value
; per call, the arguments and the captured allocas' bytes read before the
; call.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@gp = addrspace(1) global ptr addrspace(5) null
@out = addrspace(1) global i32 0
declare i32 @rd()

define amdgpu_kernel void @src() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 1, ptr addrspace(5) %a
  %r = call i32 @rd()
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 2, ptr addrspace(5) %a
  %r = call i32 @rd()
  store i32 %r, ptr addrspace(1) @out
  ret void
}
