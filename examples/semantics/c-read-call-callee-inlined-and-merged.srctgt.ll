; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: class m, the stored value's domain.)
; Control: @helper (one store, then a memory(read) call) inlined, and the
; later call of @rd, with no write between, merged with the inlined one.
; The callee's count continues the caller's, and the caller counts the
; one write @helper makes on every run (memory_version::exact_writes); a
; callee whose writes are not plain to see counts an oracle instead and
; would count differently when inlined (a possible false alarm,
; docs/src/semantics.md).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@g = addrspace(1) global i32 0
@out = addrspace(1) global i32 0
declare i32 @rd() memory(read) nounwind willreturn

define internal i32 @helper(i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) @g
  %r = call i32 @rd()
  ret i32 %r
}

define amdgpu_kernel void @src(i32 %x) {
entry:
  %r = call i32 @helper(i32 %x)
  %s = call i32 @rd()
  %t = add i32 %r, %s
  store i32 %t, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) @g
  %r = call i32 @rd()
  %t = add i32 %r, %r
  store i32 %t, ptr addrspace(1) @out
  ret void
}
