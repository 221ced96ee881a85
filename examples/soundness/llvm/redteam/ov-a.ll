; Red-team case: an i8 load of a slot moved before the i32 store to it. The target (ov-b.ll) must be violated (checker/tests/loads.rs).
@g = addrspace(3) global [4 x i32] zeroinitializer
declare void @op() convergent
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k() {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr [4 x i32], ptr addrspace(3) @g, i32 0, i32 %tid
  store i32 1, ptr addrspace(3) %slot
  %b = load i8, ptr addrspace(3) %slot
  %z = icmp eq i8 %b, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
