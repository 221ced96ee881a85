; The target of share-src.ll: every comparison inverted with its branch arms swapped (the same program).
declare void @op() convergent
declare i32 @c1()
declare i32 @c2()
declare i32 @c3()

define void @slow() {
entry:
  br label %l1
l1:
  br label %l2
l2:
  br label %l3
l3:
  call void @op()
  %a = call i32 @c1()
  %ca = icmp eq i32 %a, 0
  br i1 %ca, label %l3x, label %l3
l3x:
  %b = call i32 @c2()
  %cb = icmp eq i32 %b, 0
  br i1 %cb, label %l2x, label %l2
l2x:
  %c = call i32 @c3()
  %cc = icmp eq i32 %c, 0
  br i1 %cc, label %exit, label %l1
exit:
  ret void
}

define void @fast(i32 %x) {
entry:
  %z = icmp ne i32 %x, 0
  br i1 %z, label %e, label %t
t:
  call void @op()
  br label %e
e:
  ret void
}
