; CLASS: f
; EXPECT: violated
; (Every engine decides it: the deleted second call is a missing event,
; as a `sideeffect` assembly's call is observed (docs/src/semantics.md,
; "Calls that may have effects"). Before those events, `--engine
; explicit` alone answered inconclusive: the domains of the assembly's
; values, arguments of a convergent operation, are inexact (class m).)
; The same two calls with `sideeffect`: each may give another value (the
; assembly has effects LLVM cannot see), so merging them is caught.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote(i32) #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 asm sideeffect "mov.u32 $0, %clock;", "=r"() #1
  %s = call i32 asm sideeffect "mov.u32 $0, %clock;", "=r"() #1
  %t = sub i32 %s, %r
  call void @vote(i32 %t)
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 asm sideeffect "mov.u32 $0, %clock;", "=r"() #1
  %t = sub i32 %r, %r
  call void @vote(i32 %t)
  ret void
}

attributes #0 = { convergent nounwind }
attributes #1 = { nounwind }
