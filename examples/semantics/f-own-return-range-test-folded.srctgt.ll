; CLASS: f
; EXPECT: preserved
; A function the module defines states `range(i32 0, 10)` on its own
; return; its body returns its argument unchanged, so a value outside the
; range is poison at the call (LangRef, "Parameter Attributes"). The
; caller's `v < 10` folded to true (as InstCombine does with the callee's
; range) is legal: the reference branches on poison where it is false.
; The caller reads the attribute as it reads a declared callee's
; (model/llvm/src/to_ir/ranges.rs, `of_call`). Before (2026-11-28): a
; false alarm (the fact was not read).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal range(i32 0, 10) i32 @level(i32 %x) {
entry:
  ret i32 %x
}

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call i32 @level(i32 %x)
  %c = icmp ult i32 %v, 10
  br i1 %c, label %then, label %end
then:
  store i32 1, ptr addrspace(1) %slot
  br label %end
end:
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call i32 @level(i32 %x)
  store i32 1, ptr addrspace(1) %slot
  ret void
}
