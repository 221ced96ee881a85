; CLASS: b
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of the assembly's value, an argument of a convergent operation is inexact
; (class m), so the values tried may miss one that matters; the default
; engine and the product decide the pair.)
; Inline assembly is an opaque call, mapped as a call to an external
; function whose identity is the assembly (its flags, text and
; constraints): the same `asm sideeffect` in the reference and the target
; is the same function, so a target that only recomputes the argument
; another way is preserved (before: the function was outside the model).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote(i32) #0

define void @src(i32 %a) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x = add i32 %tid, %a
  %r = call i32 asm sideeffect "add.u32 $0, $1, 1;", "=r,r"(i32 %x)
  call void @vote(i32 %r)
  ret void
}

define void @tgt(i32 %a) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x = add i32 %a, %tid
  %r = call i32 asm sideeffect "add.u32 $0, $1, 1;", "=r,r"(i32 %x)
  call void @vote(i32 %r)
  ret void
}

attributes #0 = { convergent nounwind }
