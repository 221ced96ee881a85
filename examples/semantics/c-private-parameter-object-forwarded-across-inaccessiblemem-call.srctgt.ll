; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of the loaded value is
; inexact, since it reaches a stored value; the product decides the pair.)
; The legal control of c-private-parameter-object-forwarded-across-writing-call:
; the same forward across a call that writes only inaccessible memory
; (memory(inaccessiblemem: readwrite)), which no pointer of the module
; reaches, is legal.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
declare void @ext() memory(inaccessiblemem: readwrite)

define void @src(ptr addrspace(5) %p) {
entry:
  store i32 1, ptr addrspace(5) %p
  call void @ext()
  %v = load i32, ptr addrspace(5) %p
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define void @tgt(ptr addrspace(5) %p) {
entry:
  store i32 1, ptr addrspace(5) %p
  call void @ext()
  store i32 1, ptr addrspace(1) @out
  ret void
}
