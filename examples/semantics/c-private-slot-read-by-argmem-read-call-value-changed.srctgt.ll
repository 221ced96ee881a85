; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of the call's result is
; inexact, since it reaches a stored value; the product answers.)
; FIXME(issue 20): should be violated. A call that may read its argument's
; private object (memory(argmem: read)) returns a value that may depend on
; what the object holds; the target stores 2 instead of 1 before the call,
; so the call's result (stored to @out) may differ. Today a call's result
; is a fresh value independent of the memory it may read (review F1; the
; same with a callee without attributes, and through global memory the
; call's event does not see the object's contents either).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
declare i32 @use(ptr addrspace(5) nocapture) memory(argmem: read) nounwind willreturn

define amdgpu_kernel void @src() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store i32 1, ptr addrspace(5) %a
  %r = call i32 @use(ptr addrspace(5) %a)
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store i32 2, ptr addrspace(5) %a
  %r = call i32 @use(ptr addrspace(5) %a)
  store i32 %r, ptr addrspace(1) @out
  ret void
}
