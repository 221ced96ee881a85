; CLASS: j
; EXPECT: preserved
; A barrier with no memory access near it guards nothing: a
; barrier-elimination pass may remove it (judged by the hazards it leaves,
; not by the missing event).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0() #0
declare void @op(i32) #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @op(i32 %tid)
  call void @llvm.nvvm.barrier0()
  call void @op(i32 %tid)
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @op(i32 %tid)
  call void @op(i32 %tid)
  ret void
}

attributes #0 = { convergent nounwind }
