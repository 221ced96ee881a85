; Red-team case: a convergent call hoisted out of a branch on tid >> 8 (needs a group of 257 or more). Under the default engine the explicit engine lists N > 6 as untried; the symbolic product finds it (checker/tests/loads.rs).
declare void @op() convergent
declare i32 @get()
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k(i32 %n) {
entry:
  %x = call i32 @get()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %y = lshr i32 %t, 8
  %c = icmp eq i32 %y, 0
  br i1 %c, label %then, label %els
then:
  call void @op()
  br label %exit
els:
  call void @op()
  br label %exit
exit:
  ret void
}
