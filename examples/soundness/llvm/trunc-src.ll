; Narrow integer widths (docs/src/soundness.md, "Narrow LLVM widths"): see checker/tests/llvm_cli.rs.
declare void @A() convergent
declare void @B() convergent
declare i32 @get()

define void @k() {
entry:
  %x = call i32 @get()
  %y = trunc i32 %x to i8
  %c = icmp eq i8 %y, 3
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
