; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.br.line
; Poison reaches the branch through a phi (the path where tid is not 0).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @src(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %one, label %j
one:
  br label %j
j:
  %p = phi i32 [ 7, %one ], [ 3, %entry ]
  %q = icmp slt i32 %p, 5
  br i1 %q, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %one, label %j
one:
  br label %j
j:
  %p = phi i32 [ 7, %one ], [ poison, %entry ]
  %q = icmp slt i32 %p, 5
  br i1 %q, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
