; CLASS: b
; EXPECT: violated
; (Every engine decides it: the assembly is `sideeffect`, so each call is
; an observed event named after its text (docs/src/semantics.md, "Calls
; that may have effects"), and another text is another event. Before
; those events, `--engine explicit` alone answered inconclusive: the
; domains of the assemblies' values, arguments of a convergent operation,
; are inexact (class m).)
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
