; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.call.line
; A target that adds an assume that fails for tid 0 has undefined
; behaviour the source does not have (LangRef: an assume whose condition
; is false is undefined behaviour).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0
declare void @llvm.assume(i1)

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @op()
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ne i32 %tid, 0
  call void @llvm.assume(i1 %c)
  call void @op()
  ret void
}

attributes #0 = { convergent nounwind }
