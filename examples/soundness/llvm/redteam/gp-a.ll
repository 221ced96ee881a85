; Red-team case: a load through a pointer parameter (which may be the global) moved before a store to the global. The target (gp-b.ll) must be violated (checker/tests/loads.rs).
@g = addrspace(1) global i32 0
declare void @op() convergent

define void @k(ptr addrspace(1) %p) {
entry:
  store i32 1, ptr addrspace(1) @g
  %v = load i32, ptr addrspace(1) %p
  %z = icmp eq i32 %v, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
