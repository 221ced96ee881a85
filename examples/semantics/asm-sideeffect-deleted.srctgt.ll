; CLASS: b
; EXPECT: violated
; EXPECT-MESSAGE: call asm.
; A non-convergent `asm sideeffect` has effects LLVM cannot see: a call
; to an external function that may have effects, which DESIGN.md 2.7
; makes observable (docs/src/semantics.md, "Calls that may have
; effects"), so deleting it is caught. (This case recorded `preserved` as
; a FIXME before those calls were observed.) Convergent assembly is
; observed as a convergent operation (asm-convergent-into-branches).
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
