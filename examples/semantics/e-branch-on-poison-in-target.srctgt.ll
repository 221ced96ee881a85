; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: undefined behaviour
; Branching on poison is immediate undefined behaviour, as on undef.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0
declare void @llvm.assume(i1)

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 poison, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
