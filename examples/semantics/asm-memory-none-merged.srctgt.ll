; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of the assembly's value, an argument of a convergent operation is inexact
; (class m), so the values tried may miss one that matters; the default
; engine and the product decide the pair.)
; Inline assembly without `sideeffect` that accesses no memory
; (`memory(none)`) is a function of its arguments, as a `memory(none)`
; external function is: EarlyCSE merging two calls with the same argument
; gives the same value.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote(i32) #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 asm "mul.lo.u32 $0, $1, 3;", "=r,r"(i32 %tid) #1
  %s = call i32 asm "mul.lo.u32 $0, $1, 3;", "=r,r"(i32 %tid) #1
  %t = add i32 %r, %s
  call void @vote(i32 %t)
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 asm "mul.lo.u32 $0, $1, 3;", "=r,r"(i32 %tid) #1
  %t = add i32 %r, %r
  call void @vote(i32 %t)
  ret void
}

attributes #0 = { convergent nounwind }
attributes #1 = { nounwind memory(none) }
