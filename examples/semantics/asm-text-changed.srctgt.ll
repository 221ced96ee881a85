; CLASS: b
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the two assemblies' values, arguments of a convergent operation are inexact
; (class m), so the values tried may miss one that matters; the default
; engine and the product decide the pair.)
; Another assembly text is another function: its result is another
; value, and the vote it decides may differ.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote(i32) #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 asm sideeffect "add.u32 $0, $1, 1;", "=r,r"(i32 %tid)
  call void @vote(i32 %r)
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 asm sideeffect "add.u32 $0, $1, 2;", "=r,r"(i32 %tid)
  call void @vote(i32 %r)
  ret void
}

attributes #0 = { convergent nounwind }
