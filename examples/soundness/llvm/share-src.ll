; Two functions of one file share --timeout: @slow (three nested loops whose exits read oracles) stays
; inconclusive, @fast still gets its verdict. See checker/tests/llvm_engines.rs.
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
  %ca = icmp ne i32 %a, 0
  br i1 %ca, label %l3, label %l3x
l3x:
  %b = call i32 @c2()
  %cb = icmp ne i32 %b, 0
  br i1 %cb, label %l2, label %l2x
l2x:
  %c = call i32 @c3()
  %cc = icmp ne i32 %c, 0
  br i1 %cc, label %l1, label %exit
exit:
  ret void
}

define void @fast(i32 %x) {
entry:
  %z = icmp eq i32 %x, 0
  br i1 %z, label %t, label %e
t:
  call void @op()
  br label %e
e:
  ret void
}
