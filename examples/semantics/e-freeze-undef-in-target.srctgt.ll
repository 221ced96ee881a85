; CLASS: e
; EXPECT: violated
; `freeze i1 undef` is an arbitrary value: a target that freezes undef where
; the source froze `false` may take the branch the source never takes.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0
declare void @llvm.assume(i1)

define void @src() #0 {
entry:
  %f = freeze i1 false
  br i1 %f, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt() #0 {
entry:
  %f = freeze i1 undef
  br i1 %f, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
