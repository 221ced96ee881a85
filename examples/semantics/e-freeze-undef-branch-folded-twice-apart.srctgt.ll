; CLASS: e
; EXPECT: violated
; One `freeze i1 undef` decides two branches: the reference calls both
; `@op` and `@op2` or neither, whatever it chooses. The target folds the
; first branch to `true` and the second to `false` (a call of `@op` and
; no call of `@op2`): no choice of the reference runs so.
declare void @op() #0
declare void @op2() #0

define void @src() #0 {
entry:
  %f = freeze i1 undef
  br i1 %f, label %a, label %b
a:
  call void @op()
  br label %b
b:
  br i1 %f, label %c, label %d
c:
  call void @op2()
  br label %d
d:
  ret void
}

define void @tgt() #0 {
entry:
  br i1 true, label %a, label %b
a:
  call void @op()
  br label %b
b:
  br i1 false, label %c, label %d
c:
  call void @op2()
  br label %d
d:
  ret void
}

attributes #0 = { convergent nounwind }
