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
; A rotate by 3 turned into `fshl(x, x, 4)`: the stored value differs for
; every %x whose bits are not all equal, so the model, which computes
; `llvm.fshl` exactly, must see it.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %a = shl i32 %x, 3
  %b = lshr i32 %x, 29
  %r = or i32 %a, %b
  store i32 %r, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %r = call i32 @llvm.fshl.i32(i32 %x, i32 %x, i32 4)
  store i32 %r, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
