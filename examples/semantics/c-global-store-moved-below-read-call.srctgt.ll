; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the call's result and of
; x are inexact, since they reach a stored value; the product answers.)
; Review F1 through global memory (was preserved): @rd may read any memory
; (memory(read)) and is no event; the target moves the store of x to @g
; from before the call to after it. The stores are the same events in the
; same order; the call's result depends on the count of the thread's
; writes to memory other than private before it (the memory version,
; model/llvm/src/to_ir/memory_version.rs), which the move changes.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@g = addrspace(1) global i32 0
@out = addrspace(1) global i32 0
declare i32 @rd() memory(read) nounwind willreturn

define amdgpu_kernel void @src(i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) @g
  %r = call i32 @rd()
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %r = call i32 @rd()
  store i32 %x, ptr addrspace(1) @g
  store i32 %r, ptr addrspace(1) @out
  ret void
}
