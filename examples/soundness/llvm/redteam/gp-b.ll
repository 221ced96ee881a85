; Red-team case, the target of gp-a.ll.
@g = addrspace(1) global i32 0
declare void @op() convergent

define void @k(ptr addrspace(1) %p) {
entry:
  %v = load i32, ptr addrspace(1) %p
  store i32 1, ptr addrspace(1) @g
  %z = icmp eq i32 %v, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
