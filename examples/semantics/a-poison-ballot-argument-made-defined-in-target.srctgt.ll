; CLASS: a
; EXPECT: preserved
; The reverse of `a-poison-ballot-argument-in-target`: the reference votes
; `x + 1 < 5` with `add nsw` (poison at x = 2^31 - 1), the target drops
; the flag: more defined, preserved.
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
  %c = icmp ult i32 %y, 5
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

attributes #0 = { convergent nounwind }
