; Red-team case, the target of ov-a.ll.
@g = addrspace(3) global [4 x i32] zeroinitializer
declare void @op() convergent
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k() {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr [4 x i32], ptr addrspace(3) @g, i32 0, i32 %tid
  %b = load i8, ptr addrspace(3) %slot
  store i32 1, ptr addrspace(3) %slot
  %z = icmp eq i8 %b, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
