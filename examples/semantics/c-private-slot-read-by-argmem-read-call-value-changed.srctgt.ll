; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of the call's result is
; inexact, since it reaches a stored value; the product answers.)
; Review F1 (issue 20; was preserved): a call that may read its argument's
; private object (memory(argmem: read)) returns a value that may depend on
; what the object holds; the target stores 2 instead of 1 before the call,
; so the call's result (stored to @out) may differ. The result is the
; function oracle `use.mem` of the arguments and the object's bytes
; (model/llvm/src/to_ir/call_reads.rs). Control:
; c-argmem-read-calls-merged-and-dead-store-deleted-o2.
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
