; CLASS: int
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (The explicit engine tries a few values of `x`, which reaches a stored
; value through arithmetic it does not invert: an inexact domain.)
; The widening of int-i63-counts-widened with `sext` instead of `zext`:
; for x with bit 62 set, ctpop counts the copied sign bit (and cttz is
; unchanged), so the stored sum differs.
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
  %w = sext i63 %x to i64
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
