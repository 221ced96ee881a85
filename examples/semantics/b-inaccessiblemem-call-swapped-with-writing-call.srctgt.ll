; CLASS: b
; EXPECT: violated
; A call that accesses only inaccessible memory may not swap with a call
; that may access any memory (inaccessible memory included).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @log(i32) #0
declare void @ext(i32)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @log(i32 %tid)
  call void @ext(i32 %tid)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @ext(i32 %tid)
  call void @log(i32 %tid)
  ret void
}

attributes #0 = { nounwind memory(inaccessiblemem: readwrite) }
