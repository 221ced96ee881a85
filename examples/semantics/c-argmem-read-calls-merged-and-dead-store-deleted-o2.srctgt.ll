; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the calls' results are
; inexact, since they reach stored values; the product answers.)
; EXPECT-smt: inconclusive
; (Under --engine smt: the programs differ only in loads (the bytes the
; deleted calls read), and the second search finds no scenario in which
; the observed events differ; see
; c-loads-gvn-forwards-across-inaccessiblemem-and-argmem-calls.)
; Control of c-private-slot-read-by-argmem-read-call-value-changed (review
; F1): the target is opt-19 default<O2>'s output. Calls that read only
; their argument's object (memory(argmem: read)) with the same arguments
; and the same memory are merged, one whose result is unused is deleted,
; and the store after them that nothing reads is deleted (DSE): each call's
; result is a function of its arguments and of its objects' bytes, which
; are the same (was violated: each call read a fresh value).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global [4 x i32] zeroinitializer
@g = addrspace(1) global i32 0
declare i32 @use(ptr addrspace(5) nocapture) memory(argmem: read) nounwind willreturn
declare i32 @useg(ptr addrspace(1) nocapture) memory(argmem: read) nounwind willreturn

define amdgpu_kernel void @src(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store i32 %x, ptr addrspace(5) %a
  %r = call i32 @use(ptr addrspace(5) %a)
  %r2 = call i32 @use(ptr addrspace(5) %a)
  %d = call i32 @use(ptr addrspace(5) %a)
  store i32 7, ptr addrspace(5) %a
  store i32 %r, ptr addrspace(1) @out
  %o1 = getelementptr i32, ptr addrspace(1) @out, i32 1
  store i32 %r2, ptr addrspace(1) %o1
  store i32 %x, ptr addrspace(1) @g
  %q = call i32 @useg(ptr addrspace(1) @g)
  %q2 = call i32 @useg(ptr addrspace(1) @g)
  %o2 = getelementptr i32, ptr addrspace(1) @out, i32 2
  store i32 %q, ptr addrspace(1) %o2
  %o3 = getelementptr i32, ptr addrspace(1) @out, i32 3
  store i32 %q2, ptr addrspace(1) %o3
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store i32 %x, ptr addrspace(5) %a, align 4
  %r = call i32 @use(ptr addrspace(5) %a)
  store i32 %r, ptr addrspace(1) @out, align 4
  store i32 %r, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @out, i64 4), align 4
  store i32 %x, ptr addrspace(1) @g, align 4
  %q = tail call i32 @useg(ptr addrspace(1) @g)
  store i32 %q, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @out, i64 8), align 4
  store i32 %q, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @out, i64 12), align 4
  ret void
}
