; Red-team case: udiv of an i8 truncation turned into sdiv (differs from 128 on). Found by the symbolic product under the default engine (checker/tests/loads.rs).
declare void @op() convergent
declare i32 @get()
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k(i32 %n) {
entry:
  %x = call i32 @get()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %y = trunc i32 %x to i8
  %d = udiv i8 %y, 3
  %c = icmp eq i8 %d, 85
  br i1 %c, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
