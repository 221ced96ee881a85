; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: store @out
; EXPECT-explicit: inconclusive
; The explicit engine tries one or two values of an input that no branch
; tests (its domains, DESIGN.md 2.2), here none that tells the two
; apart; the symbolic product, which tries every value, finds it. The
; input reaches a stored value, so its domain is inexact (`group_id.x`), and
; the explicit engine alone answers inconclusive (it answered preserved
; before inputs that reach only observed values were counted).
; The range is not too narrow: `blockIdx.x` may exceed 65535 (it is `y`
; and `z` that stop there), so keeping its low 16 bits changes the
; stored value.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %b, ptr addrspace(1) %slot
  ret void
}

define void @tgt() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %low = and i32 %b, 65535
  store i32 %low, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
