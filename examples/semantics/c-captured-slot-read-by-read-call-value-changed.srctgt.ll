; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of the call's result is
; inexact, since it reaches a stored value; the product answers.)
; Review F1, the general case (issue 20; was preserved): the slot's address
; is stored to a global (captured), so @rd, which may read any memory
; (memory(read)), may read the slot; the target stores 2 instead of 1
; before the call, so its result (stored to @out) may differ. The result
; is the function oracle `rd.reads` of the arguments, the memory version
; and the bytes of every captured alloca (model/llvm/src/to_ir/call_reads.rs).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@gp = addrspace(1) global ptr addrspace(5) null
@out = addrspace(1) global i32 0
declare i32 @rd() memory(read) nounwind willreturn

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
