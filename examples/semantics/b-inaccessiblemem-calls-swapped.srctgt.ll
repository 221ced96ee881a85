; CLASS: b
; EXPECT: violated
; Calls that access only inaccessible memory may move across loads and
; stores, not across each other (the memory they access may be the same):
; swapping two is caught.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @log(i32) #0
declare void @flush() #0

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @log(i32 %tid)
  call void @flush()
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @flush()
  call void @log(i32 %tid)
  ret void
}

attributes #0 = { nounwind memory(inaccessiblemem: readwrite) }
