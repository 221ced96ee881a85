; CLASS: b
; EXPECT: violated
; `memory(inaccessiblemem: write)` does have effects (LangRef, `memory`):
; deleting the call is caught.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @ext(i32) #0

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @ext(i32 %tid) #0
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret void
}

attributes #0 = { nounwind memory(argmem: read, inaccessiblemem: write) }
