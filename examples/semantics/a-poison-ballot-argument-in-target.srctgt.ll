; CLASS: a
; EXPECT: violated
; A convergent operation's argument is observed, and a target may be more
; defined than its reference, never less: the target votes `x + 1 < 5`
; with `add nsw`, poison at x = 2^31 - 1 (the reference's `add` has no
; flag, defined everywhere). The argument carries its definedness
; (model/llvm/src/to_ir/poison.rs, `observed_value`): the target's is
; poison where the reference's is defined. Before (2026-11-28) the
; argument was compared by its computed bits: proved.
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0

define i32 @src(i32 %x) {
entry:
  %y = add i32 %x, 1
  %c = icmp ult i32 %y, 5
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

define i32 @tgt(i32 %x) {
entry:
  %y = add nsw i32 %x, 1
  %c = icmp ult i32 %y, 5
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  ret i32 %b
}

attributes #0 = { convergent nounwind }
