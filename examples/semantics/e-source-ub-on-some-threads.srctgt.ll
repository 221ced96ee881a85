; CLASS: e
; EXPECT: preserved
; Thread 5 reaches `unreachable` in the source: its scenarios constrain
; nothing, and the target may drop the check and call @op on every thread
; (SimplifyCFG removes branches into `unreachable` the same way).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0
declare void @llvm.assume(i1)

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 5
  br i1 %c, label %bad, label %ok
bad:
  unreachable
ok:
  call void @op()
  ret void
}

define void @tgt() #0 {
entry:
  call void @op()
  ret void
}

attributes #0 = { convergent nounwind }
