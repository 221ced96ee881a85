; CLASS: a
; EXPECT: violated
; EXPECT-MESSAGE: llvm.nvvm.vote.any.sync
; The explicit mask of a warp vote is an argument, observed: the full warp
; in the reference, the low half in the target.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i1 @llvm.nvvm.vote.any.sync(i32, i1) #0

define i1 @src(i1 %p) {
entry:
  %r = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %p)
  ret i1 %r
}

define i1 @tgt(i1 %p) {
entry:
  %r = call i1 @llvm.nvvm.vote.any.sync(i32 65535, i1 %p)
  ret i1 %r
}

attributes #0 = { convergent nounwind }
