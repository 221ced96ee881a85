; CLASS: n
; EXPECT: preserved
; Loop unswitching on an `inreg` argument (uniform by the ABI, and one
; value for the whole run: what the kernel language writes
; `uniform(invariant(sel))`): every thread takes the same copy of the
; loop, so `body`, `ballot` and `other` keep their convergence although
; the loop holds convergent calls (issue 20, class n; LLVM's
; SimpleLoopUnswitch does not clone loops with convergent calls).
declare i1 @more() #1
declare void @body() #0
declare void @ballot() #0
declare void @other() #0

define void @src(i1 inreg %sel) {
entry:
  br label %loop
loop:
  %c = call i1 @more()
  br i1 %c, label %b, label %exit
b:
  call void @body()
  br i1 %sel, label %then, label %else
then:
  call void @ballot()
  br label %loop
else:
  call void @other()
  br label %loop
exit:
  ret void
}

define void @tgt(i1 inreg %sel) {
entry:
  br i1 %sel, label %loop.t, label %loop.e
loop.t:
  %c1 = call i1 @more()
  br i1 %c1, label %b.t, label %exit
b.t:
  call void @body()
  call void @ballot()
  br label %loop.t
loop.e:
  %c2 = call i1 @more()
  br i1 %c2, label %b.e, label %exit
b.e:
  call void @body()
  call void @other()
  br label %loop.e
exit:
  ret void
}

attributes #0 = { convergent nounwind }
attributes #1 = { nounwind }
