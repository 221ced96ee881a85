; Narrow integer widths (docs/src/soundness.md, "Narrow LLVM widths"): see checker/tests/llvm_cli.rs.
declare void @A() convergent
declare void @B() convergent
declare i32 @get()

define void @k() {
entry:
  %x = call i32 @get()
  %y = add i32 %x, 1
  %c = icmp slt i32 %y, 0
  br i1 %c, label %t, label %e
t:
  call void @A()
  br label %end
e:
  call void @B()
  br label %end
end:
  ret void
}
