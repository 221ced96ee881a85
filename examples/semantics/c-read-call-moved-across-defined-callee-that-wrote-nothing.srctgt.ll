; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the call's result is a function oracle
; whose domain is inexact; the product answers.)
; Review2 G9 (was preserved): @h may write but h(false) writes nothing; the
; target moves the store to @g above @rd and @h below it. Counting the
; call of @h as one write gave @rd the version 1 in both; the count after
; a defined callee that may write is now the function oracle `h.version`
; of the count before and the arguments (memory_version.rs).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@g = addrspace(1) global i32 0
@q = addrspace(1) global i32 0
@out = addrspace(1) global i32 0
declare i32 @rd() memory(read) nounwind willreturn

define internal void @h(i1 %c) noinline {
entry:
  br i1 %c, label %w, label %e
w:
  store i32 5, ptr addrspace(1) @q
  br label %e
e:
  ret void
}

define amdgpu_kernel void @src(i32 %x) {
entry:
  call void @h(i1 false)
  %r = call i32 @rd()
  store i32 %x, ptr addrspace(1) @g
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) @g
  %r = call i32 @rd()
  call void @h(i1 false)
  store i32 %r, ptr addrspace(1) @out
  ret void
}
