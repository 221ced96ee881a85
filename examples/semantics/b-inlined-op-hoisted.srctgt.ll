; CLASS: b
; EXPECT: violated
; EXPECT-MESSAGE: is not converged in the reference but converged in the target
; Inlining is transparent, but merging the two inlined votes of an if and
; its else into one after the join is not (SimplifyCFG's sinking of a
; convergent call, which LLVM forbids): threads that took different sides
; now vote together.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0

define i32 @vote(i1 %c) #0 {
entry:
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

define i32 @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %a, label %b
a:
  %x = call i32 @vote(i1 true)
  br label %end
b:
  %y = call i32 @vote(i1 true)
  br label %end
end:
  %r = phi i32 [ %x, %a ], [ %y, %b ]
  ret i32 %r
}

define i32 @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %a, label %b
a:
  br label %end
b:
  br label %end
end:
  %r = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 true)
  ret i32 %r
}

attributes #0 = { convergent nounwind }
