; CLASS: e
; EXPECT: preserved
; The reference branches on `freeze i1 undef`, its own choice; the target
; (as InstCombine folds it) branches on `false`: the reference's runs that
; choose `false` are the target's, so the target refines it.
declare void @op() #0

define void @src() #0 {
entry:
  %f = freeze i1 undef
  br i1 %f, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt() #0 {
entry:
  br i1 false, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
