; CLASS: n
; EXPECT: violated
; EXPECT-MESSAGE: convergence at `body`
; The same unswitching on a plain argument of a device function (one
; value per thread, possibly different across threads): threads with
; different values run different copies of the loop, and their
; instances of `body` no longer converge (issue 20, class n).
declare i1 @more() #1
declare void @body() #0
declare void @ballot() #0
declare void @other() #0

define void @src(i1 %sel) {
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

define void @tgt(i1 %sel) {
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
