; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; (Under --engine explicit alone: class m, inexact domains of stored values;
; under --engine smt the programs differ only in loads, the product's
; second search finds no difference and leaves the pair to the explicit
; engine, as c-loads-gvn-forwards-across-inaccessiblemem-and-argmem-calls.)
; Control for review F1: opt-19 -passes=gvn,dse's own output. @rd may read
; any memory (memory(read)) and writes none: GVN forwards the stored values
; of the slot %a (never captured: the call cannot read it), of the
; captured slot %b and of @g across it, merges the two calls, and DSE
; deletes the store to %a; the store to %b before the call stays (the call
; may read it). Across @ext (no attributes) the stored 6 is not forwarded.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@gp = addrspace(1) global ptr addrspace(5) null
@g = addrspace(1) global i32 0
@out = addrspace(1) global [4 x i32] zeroinitializer
declare i32 @rd() memory(read) nounwind willreturn
declare i32 @ext(i32)


define amdgpu_kernel void @src(i32 %x, i32 %y) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %b = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %b, ptr addrspace(1) @gp
  store i32 %x, ptr addrspace(5) %a
  store i32 %y, ptr addrspace(5) %b
  store i32 %x, ptr addrspace(1) @g
  %r = call i32 @rd()
  %v = load i32, ptr addrspace(5) %a
  %w = load i32, ptr addrspace(5) %b
  %u = load i32, ptr addrspace(1) @g
  %r2 = call i32 @rd()
  %s = add i32 %r, %v
  %s2 = add i32 %s, %w
  %s3 = add i32 %s2, %u
  %s4 = add i32 %s3, %r2
  store i32 %s4, ptr addrspace(1) @out
  store i32 5, ptr addrspace(5) %a
  store i32 6, ptr addrspace(5) %b
  %e = call i32 @ext(i32 %s4)
  %e2 = load i32, ptr addrspace(5) %b
  %e3 = add i32 %e, %e2
  %p1 = getelementptr [4 x i32], ptr addrspace(1) @out, i32 0, i32 1
  store i32 %e3, ptr addrspace(1) %p1
  ret void
}

define amdgpu_kernel void @tgt(i32 %x, i32 %y) {
entry:
  %b = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %b, ptr addrspace(1) @gp, align 4
  store i32 %y, ptr addrspace(5) %b, align 4
  store i32 %x, ptr addrspace(1) @g, align 4
  %r = call i32 @rd()
  %s = add i32 %r, %x
  %s2 = add i32 %s, %y
  %s3 = add i32 %s2, %x
  %s4 = add i32 %s3, %r
  store i32 %s4, ptr addrspace(1) @out, align 4
  store i32 6, ptr addrspace(5) %b, align 4
  %e = call i32 @ext(i32 %s4)
  %e2 = load i32, ptr addrspace(5) %b, align 4
  %e3 = add i32 %e, %e2
  store i32 %e3, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @out, i64 4), align 4
  ret void
}
