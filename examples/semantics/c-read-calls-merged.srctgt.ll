; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the call's result is an observed value
; whose domain is inexact, class m.)
; Two memory(read) calls with the same arguments and no write between them
; merged (EarlyCSE and GVN do it): one value, since the result is a
; function of the arguments and the memory version (was violated: each
; call read a fresh value, a false alarm).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
declare i32 @rd() memory(read) nounwind willreturn

define amdgpu_kernel void @src(i32 %x) {
entry:
  %r = call i32 @rd()
  %s = call i32 @rd()
  %t = add i32 %r, %s
  store i32 %t, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %r = call i32 @rd()
  %t = add i32 %r, %r
  store i32 %t, ptr addrspace(1) @out
  ret void
}
