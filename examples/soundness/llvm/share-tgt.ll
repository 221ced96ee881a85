; The target of share-src.ll: every branch condition negated with `xor ..., true` and its arms swapped
; (the same program; the structural rule does not undo `xor` inversions, so an engine must decide it).
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
  %ca.n = icmp ne i32 %a, 0
  %ca = xor i1 %ca.n, true
  br i1 %ca, label %l3x, label %l3
l3x:
  %b = call i32 @c2()
  %cb.n = icmp ne i32 %b, 0
  %cb = xor i1 %cb.n, true
  br i1 %cb, label %l2x, label %l2
l2x:
  %c = call i32 @c3()
  %cc.n = icmp ne i32 %c, 0
  %cc = xor i1 %cc.n, true
  br i1 %cc, label %exit, label %l1
exit:
  ret void
}

define void @fast(i32 %x) {
entry:
  %z.n = icmp eq i32 %x, 0
  %z = xor i1 %z.n, true
  br i1 %z, label %e, label %t
t:
  call void @op()
  br label %e
e:
  ret void
}
