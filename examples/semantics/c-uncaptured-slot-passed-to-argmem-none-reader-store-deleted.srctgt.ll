; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the call's result is a function oracle
; whose domain is inexact; the product answers.)
; Review2 L2 (was a false alarm): @rd is `memory(read, argmem: none)`: it
; may not read the uncaptured slot through its argument (passing it
; captures it only at the call itself), so the store to the slot is dead
; and the target deletes it. The argument's object is read only where the
; call may read argument memory (call_reads.rs).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
declare i32 @rd(ptr addrspace(5)) memory(read, argmem: none) nounwind willreturn

define amdgpu_kernel void @src(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store i32 %x, ptr addrspace(5) %a
  %r = call i32 @rd(ptr addrspace(5) %a)
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %r = call i32 @rd(ptr addrspace(5) %a)
  store i32 %r, ptr addrspace(1) @out
  ret void
}
