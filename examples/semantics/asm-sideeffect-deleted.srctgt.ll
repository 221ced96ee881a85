; CLASS: b
; EXPECT: preserved
; FIXME: should be violated. A non-convergent `asm sideeffect` has effects
; LLVM cannot see, and DESIGN.md 2.7 makes calls to external functions that
; may have effects observable; the model observes neither an external
; call's effects nor inline assembly's (docs/src/semantics.md, "Not yet
; modelled"), so deleting it is not caught. Convergent assembly is
; observed (asm-convergent-into-branches).
@buf = addrspace(1) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @buf, i32 0, i32 %tid
  store i32 1, ptr addrspace(1) %p
  call void asm sideeffect "membar.gl;", ""()
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @buf, i32 0, i32 %tid
  store i32 1, ptr addrspace(1) %p
  ret void
}
