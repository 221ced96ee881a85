; CLASS: f
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (`--engine explicit`: inconclusive, its domains of the parameter are inexact, class m.)
; A call-site `range` on an intrinsic's result (review3 H1): the target
; states `range(i32 0, 3)` on ctpop, so ctpop(x) = 5 is poison there and
; the target stores poison where the reference stores 5 (less defined).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0
declare i32 @llvm.ctpop.i32(i32)

define void @src(i32 %x) {
entry:
  %c = call i32 @llvm.ctpop.i32(i32 %x)
  store i32 %c, ptr addrspace(1) @out
  ret void
}

define void @tgt(i32 %x) {
entry:
  %c = call range(i32 0, 3) i32 @llvm.ctpop.i32(i32 %x)
  store i32 %c, ptr addrspace(1) @out
  ret void
}
