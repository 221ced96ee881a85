; CLASS: int
; EXPECT: violated
; EXPECT-MESSAGE: store @out
; EXPECT-explicit: inconclusive
; The explicit engine tries one or two values of an input that no branch
; tests (its domains, DESIGN.md 2.2), here none that tells the two
; apart; the symbolic product, which tries every value, finds it. The
; input reaches a stored value, so its domain is inexact (`x`), and
; the explicit engine alone answers inconclusive (it answered preserved
; before inputs that reach only observed values were counted).
; `ctpop(x)` replaced by the population count of x's low half alone: wrong
; for every x with a bit set in the high half.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i64 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %p = call i64 @llvm.ctpop.i64(i64 %x)
  %p32 = trunc i64 %p to i32
  store i32 %p32, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i64 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %lo = trunc i64 %x to i32
  %a = call i32 @llvm.ctpop.i32(i32 %lo)
  store i32 %a, ptr addrspace(1) %slot
  ret void
}

declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
