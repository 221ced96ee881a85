; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.call.line
; Passing poison to a `noundef` parameter is undefined behaviour (LangRef,
; "Parameter Attributes"): the target's `shl` by 40 is poison.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0
declare void @use(i32) #0

define void @src(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = shl i32 %tid, 4
  call void @use(i32 noundef %v)
  ret void
}

define void @tgt(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = shl i32 %tid, 40
  call void @use(i32 noundef %v)
  ret void
}

attributes #0 = { convergent nounwind }
