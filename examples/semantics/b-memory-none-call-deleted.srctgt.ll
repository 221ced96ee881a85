; CLASS: b
; EXPECT: proved
; EXPECT-explicit: preserved
; (The explicit engine alone proves nothing for every iteration count.)
; A `memory(none)` external call whose value is unused has no effect to
; observe: deleting it is allowed.
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

attributes #0 = { nounwind willreturn memory(none) }
