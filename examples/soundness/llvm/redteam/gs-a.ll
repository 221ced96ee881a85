; Red-team case: a load through a generic select of two addrspacecasts moved before the thread's own store. The target (gs-b.ll) must be violated (checker/tests/loads.rs).
@s = addrspace(3) global i32 0
@t = addrspace(3) global i32 0
declare void @op() convergent

define void @k(i1 %c) {
entry:
  %ps = addrspacecast ptr addrspace(3) @s to ptr
  %pt = addrspacecast ptr addrspace(3) @t to ptr
  %p = select i1 %c, ptr %pt, ptr %ps
  store i32 1, ptr addrspace(3) @s
  %v = load i32, ptr %p
  %z = icmp eq i32 %v, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
