; CLASS: e
; EXPECT: violated
; EXPECT-explicit: inconclusive
; A function the module defines is `noundef` on its return and returns
; `add nsw i32 %x, 1`, poison at x = 2^31 - 1: returning poison there is
; undefined behaviour (LangRef, "Parameter Attributes"; the block
; `ub.ret.lineN`). The target adds a call of it whose result nothing uses,
; so it has undefined behaviour the reference has not: violated. Before
; (2026-11-28) `noundef` on a function's own return was not read and this
; was preserved. `--engine explicit` alone: inconclusive (`x` is stored, an
; observed value whose domain is inexact: class m; 2^31 - 1 is not tried).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal noundef i32 @inc(i32 %x) {
entry:
  %a = add nsw i32 %x, 1
  ret i32 %a
}

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call i32 @inc(i32 %x)
  store i32 %x, ptr addrspace(1) %slot
  ret void
}
