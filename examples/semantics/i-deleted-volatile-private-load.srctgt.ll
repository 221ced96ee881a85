; CLASS: i
; EXPECT: violated
; EXPECT-MESSAGE: volatile load
; An unused volatile load of a private slot is observable (LangRef), so
; deleting it is a change.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %slot = alloca i32, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %slot, align 4
  %v = load volatile i32, ptr %slot, align 4
  ret void
}

define void @tgt() {
entry:
  %slot = alloca i32, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %slot, align 4
  ret void
}
