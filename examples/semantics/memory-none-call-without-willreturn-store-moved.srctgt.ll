; CLASS: memory-none
; EXPECT: violated
; EXPECT-MESSAGE: call @f
; A store moved below a call `memory(none)` without
; `willreturn` (review3 H14): where `f` does not return, the reference has
; stored 1 to @out2 and the target has not (LangRef: without `willreturn`
; a call may not return; opt-19's passes keep such a call in place). The
; call is an observed event with its arguments, in order with the stores
; (model/llvm/src/to_ir/calls.rs). Before: preserved.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0
@out2 = addrspace(1) global i32 0
declare i32 @f(i32) nounwind memory(none)

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
