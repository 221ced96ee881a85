; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (`--engine explicit`: inconclusive, its domains of the parameter are inexact, class m.)
; opt-19 `instcombine` folds `icmp ult %c, 3` to true using the call-site
; `range(i32 0, 3)` of ctpop (review3 H1): where ctpop(x) >= 3 the
; reference's value is poison, and it stores it, so the target's 1 is a
; refinement.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0
declare i32 @llvm.ctpop.i32(i32)

define void @src(i32 %x) {
entry:
  %c = call range(i32 0, 3) i32 @llvm.ctpop.i32(i32 %x)
  %b = icmp ult i32 %c, 3
  %z = zext i1 %b to i32
  store i32 %z, ptr addrspace(1) @out
  ret void
}

define void @tgt(i32 %x) {
entry:
  store i32 1, ptr addrspace(1) @out, align 4
  ret void
}
