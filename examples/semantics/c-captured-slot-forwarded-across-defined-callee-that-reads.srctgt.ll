; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of the loaded value is
; inexact, since it reaches a stored value; the product decides the pair.)
; The legal control of c-captured-slot-written-inside-defined-callee: the
; defined @helper calls only an external function that reads memory
; (memory(read)), so nothing may write the captured slot and the stored
; value may be forwarded across the call of @helper.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
@gp = addrspace(1) global ptr addrspace(5) null
declare void @ext() memory(read)

define void @helper() {
entry:
  call void @ext()
  ret void
}

define amdgpu_kernel void @src() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 1, ptr addrspace(5) %a
  call void @helper()
  %v = load i32, ptr addrspace(5) %a
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 1, ptr addrspace(5) %a
  call void @helper()
  store i32 1, ptr addrspace(1) @out
  ret void
}
