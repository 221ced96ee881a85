; CLASS: int
; EXPECT: violated
; `cttz(x, false)` turned into `cttz(x, true)` on a path where x may be 0
; makes the target less defined: poison where the source stores 32, which
; LangRef makes a violation (the target may be more defined than the
; reference, never less). The result of a zero-poison `ctlz`/`cttz` has a
; shadow (defined where x is not 0, model/llvm/src/to_ir/poison.rs), and
; a value stored to shared or global memory carries its definedness:
; the target stores poison where the reference stores 32 (before
; 2026-11-29, late morning: undefined behaviour, `ub.poison-stored.lineN`). Before (2026-11-28) the model took `cttz(0,
; true)` to be 32 and said preserved.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %t = call i32 @llvm.cttz.i32(i32 %x, i1 false)
  store i32 %t, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %t = call i32 @llvm.cttz.i32(i32 %x, i1 true)
  store i32 %t, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.cttz.i32(i32, i1 immarg)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
