; Narrow integer widths (docs/src/soundness.md, "Narrow LLVM widths"): see checker/tests/llvm_cli.rs.
declare void @ballot() convergent
declare void @T() convergent
declare void @E() convergent
declare i32 @get()

define void @k() {
entry:
  %x = call i32 @get()
  %t = trunc i32 %x to i8
  %a = icmp eq i8 %t, 3
  %b = icmp eq i32 %x, 3
  %c = xor i1 %a, %b
  br i1 %c, label %then, label %else
then:
  call void @ballot()
  call void @T()
  br label %end
else:
  call void @ballot()
  call void @E()
  br label %end
end:
  ret void
}
