; CLASS: tokens
; EXPECT: proved
; ADCE on opt-22 (LLVM's `ADCE/convergence.ll`, `baz`): a loop that never
; exits and observes nothing, whose `entry` and `loop` tokens opt-22
; deletes. The tokens are aligned with the cycle hierarchy, so erasing
; them changes no operation's convergence, and the structural rule
; proves the function after erasing them. `@bar` beside it has an anchor:
; the erasure is per function (and its callees), not per file, so the
; anchor there does not stop it.
declare token @llvm.experimental.convergence.entry() #1
declare token @llvm.experimental.convergence.anchor() #1
declare token @llvm.experimental.convergence.loop() #1
declare void @sync() #0
attributes #0 = { convergent }
attributes #1 = { convergent nounwind willreturn memory(none) }

define void @bar() #0 {
entry:
  %tk = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %tk) ]
  ret void
}

define void @src() #0 {
entry:
  %tk0 = call token @llvm.experimental.convergence.entry()
  br label %header

header:
  %tk1 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %tk0) ]
  br i1 true, label %body, label %exit

body:
  br label %header

exit:
  ret void
}

define void @tgt() #0 {
entry:
  br label %header

header:
  br i1 true, label %body, label %exit

body:
  br label %header

exit:
  ret void
}
