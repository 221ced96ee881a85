; Red-team case: an i16 lshr turned into ashr. Found by the symbolic product under the default engine (checker/tests/loads.rs).
declare void @op() convergent
declare i32 @get()
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k(i32 %n) {
entry:
  %x = call i32 @get()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %y = trunc i32 %x to i16
  %d = lshr i16 %y, 15
  %c = icmp eq i16 %d, 1
  br i1 %c, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
