; CLASS: a
; EXPECT: violated
; EXPECT-MESSAGE: llvm.nvvm.vote.ballot.sync
; A ballot's argument is observed: `ballot(tid < 1)` changed to
; `ballot(tid < 2)` changes what tid 1 votes (issue 20, class a).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0

define i32 @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, 1
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

define i32 @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, 2
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

attributes #0 = { convergent nounwind }
