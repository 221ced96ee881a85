; Red-team case, the target of lshr16-a.ll.
declare void @op() convergent
declare i32 @get()
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k(i32 %n) {
entry:
  %x = call i32 @get()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %y = trunc i32 %x to i16
  %d = ashr i16 %y, 15
  %c = icmp eq i16 %d, 1
  br i1 %c, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
