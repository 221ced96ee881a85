; CLASS: a
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of v are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; The same argument computed another way (InstCombine's canonical form, a
; narrower type): nothing a thread passes changes, so no alarm.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32) #0

define i32 @src(i32 %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %lane64 = add i64 %t64, 1
  %lane = trunc i64 %lane64 to i32
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v, i32 %lane, i32 31)
  %c = icmp sgt i32 %tid, 3
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  %r = add i32 %s, %b
  ret i32 %r
}

define i32 @tgt(i32 %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = add i32 1, %tid
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v, i32 %lane, i32 31)
  %c = icmp uge i32 %tid, 4
  %cz = icmp ult i32 %tid, 2147483648
  %cc = and i1 %c, %cz
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %cc)
  %r = add i32 %b, %s
  ret i32 %r
}

attributes #0 = { convergent nounwind }
