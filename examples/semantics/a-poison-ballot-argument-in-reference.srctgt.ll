; CLASS: a
; EXPECT: preserved
; A convergent operation's argument is observed with its definedness: the
; reference votes `x + 1 < 5` with `add nsw` (poison at x = 2^31 - 1),
; the target votes `x + 1 < 5` without the flag except at 2^31 - 1, where
; it votes true (the reference's wrapped bits say false). Where the
; reference's vote is poison the target may pass anything; elsewhere the
; votes agree.
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0

define i32 @src(i32 %x) {
entry:
  %y = add nsw i32 %x, 1
  %c = icmp ult i32 %y, 5
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

define i32 @tgt(i32 %x) {
entry:
  %y = add i32 %x, 1
  %m = icmp eq i32 %x, 2147483647
  %u = icmp ult i32 %y, 5
  %c = select i1 %m, i1 true, i1 %u
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

attributes #0 = { convergent nounwind }
