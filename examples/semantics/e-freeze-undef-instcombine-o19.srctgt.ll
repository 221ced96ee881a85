; CLASS: e
; EXPECT: inconclusive
; `@tgt` is opt-19 -passes=instcombine's output for `@src` (renamed):
; it folds `freeze i32 undef` to 0 in both of its uses (`%f + %x` is then
; `%x`) and `freeze i1 poison` to false (the store under it is deleted).
; Both are choices the reference may make, so no alarm. The stored value
; depends on `%x` through arithmetic, whose domain is inexact: the explicit
; engine alone is inconclusive; the product's first scenario is one the
; reference makes by another choice (it does not search the reference's
; choices), so under `--engine smt` the explicit engine decides, and under
; the default engine the stage is inconclusive too (red-team review3 H15:
; it was preserved, resting on the explicit engine's inexact domains after
; a product search that could not go on; a real bug next to such a choice,
; `r3-h15-freeze-undef-explained-model`, was preserved the same way).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %f = freeze i32 undef
  %a = add i32 %f, %x
  %c = icmp eq i32 %x, 3
  %s = select i1 %c, i32 %f, i32 %a
  store i32 %s, ptr addrspace(1) %slot
  %g = freeze i1 poison
  br i1 %g, label %a1, label %b
a1:
  store i32 1, ptr addrspace(1) %slot
  br label %b
b:
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %0 = sext i32 %tid to i64
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i64 0, i64 %0
  %c = icmp eq i32 %x, 3
  %s = select i1 %c, i32 0, i32 %x
  store i32 %s, ptr addrspace(1) %slot, align 4
  br i1 false, label %a1, label %b

a1:                                               ; preds = %entry
  br label %b

b:                                                ; preds = %a1, %entry
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
