; CLASS: i
; EXPECT: violated
; EXPECT-MESSAGE: volatile store
; A volatile access is observable whatever memory it accesses (LangRef:
; volatile operations may not be deleted, added or reordered against each
; other), private memory included: deleting a volatile store to a slot
; that nothing reads is a change (a debugger's or a device's view of the
; slot). Non-volatile private accesses are thread state, not events.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %slot = alloca i32, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store volatile i32 %tid, ptr %slot, align 4
  ret void
}

define void @tgt() {
entry:
  %slot = alloca i32, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret void
}
