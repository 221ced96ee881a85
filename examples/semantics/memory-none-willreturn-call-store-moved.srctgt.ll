; CLASS: memory-none
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of f's value, a stored value, is
; inexact.)
; The control of memory-none-call-without-willreturn-store-moved: the same
; store moved below a `memory(none)` call that says `willreturn` (as clang's
; CUDA/HIP builtins do): the call returns and accesses no memory, so its
; place against the store is not observable (LangRef; review3 H14).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0
@out2 = addrspace(1) global i32 0
declare i32 @f(i32) nounwind willreturn memory(none)

define void @src(i32 %x) {
entry:
  store i32 1, ptr addrspace(1) @out2
  %r = call i32 @f(i32 %x)
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define void @tgt(i32 %x) {
entry:
  %r = call i32 @f(i32 %x)
  store i32 1, ptr addrspace(1) @out2
  store i32 %r, ptr addrspace(1) @out
  ret void
}
