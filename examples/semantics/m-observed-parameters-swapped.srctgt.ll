; CLASS: m
; EXPECT: violated
; EXPECT-MESSAGE: store @out
; EXPECT-explicit: inconclusive
; The target stores %y where the reference stores %x. No branch tests
; either parameter, so the explicit engine's domains give each the one
; value 0, and the two stores write the same value there: before inputs
; that reach only observed values (a stored value, an argument of a
; convergent operation) were counted as inexact, `--engine explicit`
; answered preserved. Now both domains are inexact and the explicit
; engine alone says inconclusive; the product finds %x != %y.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %y, ptr addrspace(1) %slot
  ret void
}
