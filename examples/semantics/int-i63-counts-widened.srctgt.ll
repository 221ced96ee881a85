; CLASS: int
; EXPECT: proved
; EXPECT-explicit: inconclusive
; (The explicit engine tries a few values of `x`, which reaches a stored
; value through arithmetic it does not invert: an inexact domain.)
; Intrinsics on an odd width: `ctpop.i63(x) + cttz.i63(x)` computed at 64
; bits, as a legalizer widens them: `ctpop.i64(zext x)` counts the same
; bits, and `cttz.i64(zext x | 2^63)` stops at bit 63 where `cttz.i63`
; answers 63 for x = 0. Both engines must compute the i63 forms exactly
; (convcheck panicked on an i63 mask before 2026-11-28).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i64] zeroinitializer

define void @src(i63 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i64], ptr addrspace(1) @out, i32 0, i32 %tid
  %a = call i63 @llvm.ctpop.i63(i63 %x)
  %b = call i63 @llvm.cttz.i63(i63 %x, i1 false)
  %s = add i63 %a, %b
  %z = zext i63 %s to i64
  store i64 %z, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i63 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i64], ptr addrspace(1) @out, i32 0, i32 %tid
  %w = zext i63 %x to i64
  %a = call i64 @llvm.ctpop.i64(i64 %w)
  %top = or i64 %w, -9223372036854775808
  %b = call i64 @llvm.cttz.i64(i64 %top, i1 true)
  %s = add i64 %a, %b
  store i64 %s, ptr addrspace(1) %slot
  ret void
}

declare i63 @llvm.ctpop.i63(i63)
declare i63 @llvm.cttz.i63(i63, i1)
declare i64 @llvm.ctpop.i64(i64)
declare i64 @llvm.cttz.i64(i64, i1)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
