; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the parameter is read into its range by
; a remainder, which the domain analysis does not invert: `x` is inexact.)
; The test `x < 1024` of a parameter declared `noundef range(i32 0, 1024)`
; folded to true (what InstCombine and IPSCCP do with the attribute):
; LangRef makes a value out of the range poison, and `noundef` makes
; passing poison undefined behaviour, so no scenario of the entry has
; such a value (model/llvm/src/to_ir/ranges.rs). Was a violation: the
; `range` attribute was not read.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(i32 noundef range(i32 0, 1024) %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %c = icmp ult i32 %x, 1024
  br i1 %c, label %then, label %end
then:
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  br label %end
end:
  ret void
}

define void @tgt(i32 noundef range(i32 0, 1024) %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  ret void
}
