; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: inexact domains of the stored values.)
; Review F1 through memory no object of the module names (was preserved):
; the store through the kernel's parameter %p is moved below a
; memory(read) call, which may read it. Caught by the memory version.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
declare i32 @rd() memory(read) nounwind willreturn

define amdgpu_kernel void @src(ptr addrspace(1) %p, i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) %p
  %r = call i32 @rd()
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(ptr addrspace(1) %p, i32 %x) {
entry:
  %r = call i32 @rd()
  store i32 %x, ptr addrspace(1) %p
  store i32 %r, ptr addrspace(1) @out
  ret void
}
