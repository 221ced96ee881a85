; CLASS: b
; EXPECT: preserved
; InstCombine and the Attributor delete calls to helpers without effects
; (issue 20: 36 of 38 "violations" of `fuzz --pass-cmd` at default<O2>
; were such deletions).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @empty(i32 %x) #0 {
entry:
  %y = add i32 %x, 1
  ret void
}

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @empty(i32 %tid)
  call void @op()
  call void @empty(i32 0)
  ret void
}

define void @tgt() #0 {
entry:
  call void @op()
  ret void
}

attributes #0 = { convergent nounwind }
