; CLASS: e
; EXPECT: inconclusive
; EXPECT-MESSAGE: undefined behaviour
; The source branches on undef in every run: every scenario has undefined
; behaviour and constrains nothing, so the target may do anything; with
; no scenario left to compare the check says so rather than pass.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0
declare void @llvm.assume(i1)

define void @src() #0 {
entry:
  br i1 undef, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt() #0 {
entry:
  call void @op()
  ret void
}

attributes #0 = { convergent nounwind }
