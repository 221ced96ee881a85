; Red-team case, the target of cg-a.ll.
@tab = addrspace(1) constant [2 x i32] [i32 0, i32 1]
declare void @op() convergent

define void @k() {
entry:
  %q = getelementptr [2 x i32], ptr addrspace(1) @tab, i32 0, i32 1
  %v = load i32, ptr addrspace(1) %q
  %z = icmp eq i32 %v, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
