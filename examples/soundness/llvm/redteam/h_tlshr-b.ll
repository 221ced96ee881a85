; Red-team case, the target of h_tlshr-a.ll.
declare void @op() convergent
declare i32 @get()
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k(i32 %n) {
entry:
  %x = call i32 @get()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %y = lshr i32 %t, 8
  %c = icmp eq i32 %y, 0
  call void @op()
  ret void
}
