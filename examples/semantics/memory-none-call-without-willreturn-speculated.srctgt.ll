; CLASS: memory-none
; EXPECT: violated
; EXPECT-MESSAGE: call @f
; A `memory(none)` call without `willreturn` hoisted above the branch that
; guards it (review3 H14). LangRef ("Function Attributes", `willreturn`):
; without it the call may not return, so where %c is false the target may
; hang where the reference returns (and without `speculatable` it may be
; undefined for arguments the reference never passes). Such a call is an
; observed event with its arguments (model/llvm/src/to_ir/calls.rs), so the
; target's extra call is reported. Before, it was a pure value: proved.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0
declare i32 @f(i32) nounwind memory(none)

define void @src(i32 %x, i1 %c) {
entry:
  br i1 %c, label %A, label %X
A:
  %r = call i32 @f(i32 %x)
  store i32 %r, ptr addrspace(1) @out
  br label %X
X:
  ret void
}

define void @tgt(i32 %x, i1 %c) {
entry:
  %r = call i32 @f(i32 %x)
  br i1 %c, label %A, label %X
A:
  store i32 %r, ptr addrspace(1) @out
  br label %X
X:
  ret void
}
