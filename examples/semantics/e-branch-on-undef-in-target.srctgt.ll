; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: undefined behaviour
; Branching on undef is immediate undefined behaviour (LangRef): a target
; that branches on `undef` where the source branched on `false` is less
; defined than the source (issue 20, class e).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0
declare void @llvm.assume(i1)

define void @src() #0 {
entry:
  br i1 false, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt() #0 {
entry:
  br i1 undef, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
