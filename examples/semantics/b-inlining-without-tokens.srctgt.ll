; CLASS: b
; EXPECT: preserved
; The same without tokens (maximal convergence): the helper's vote is
; converged where the call was, before and after inlining.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0

define i32 @vote(i32 %x) #0 {
entry:
  %c = icmp eq i32 %x, 0
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

define i32 @src(i1 %p) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %p, label %a, label %b
a:
  %x = call i32 @vote(i32 %tid)
  br label %end
b:
  br label %end
end:
  %r = phi i32 [ %x, %a ], [ 0, %b ]
  ret i32 %r
}

define i32 @tgt(i1 %p) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %p, label %a, label %end
a:
  %c = icmp eq i32 %tid, 0
  %x = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  br label %end
end:
  %r = phi i32 [ %x, %a ], [ 0, %entry ]
  ret i32 %r
}

attributes #0 = { convergent nounwind }
