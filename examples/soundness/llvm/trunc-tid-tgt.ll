; Narrow integer widths (docs/src/soundness.md, "Narrow LLVM widths"): see checker/tests/llvm_cli.rs.
declare void @ballot() convergent
declare void @T() convergent
declare void @E() convergent
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k() {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %t = trunc i32 %x to i8
  %a = icmp eq i8 %t, 0
  %b = icmp eq i32 %x, 0
  %c = xor i1 %a, %b
  call void @ballot()
  br i1 %c, label %then, label %else
then:
  call void @T()
  br label %end
else:
  call void @E()
  br label %end
end:
  ret void
}
