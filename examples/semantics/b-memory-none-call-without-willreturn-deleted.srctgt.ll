; CLASS: b
; EXPECT: violated
; EXPECT-MESSAGE: call @ext
; b-memory-none-call-deleted without `willreturn` (review3 H14): the call
; may not return (LangRef, `willreturn`), so deleting it is not allowed
; (LLVM keeps it: `wouldInstructionBeTriviallyDead` asks `willReturn`). It
; is an observed event with its arguments (model/llvm/src/to_ir/calls.rs).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @ext(i32) #0

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 @ext(i32 %tid)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret void
}

attributes #0 = { nounwind memory(none) }
