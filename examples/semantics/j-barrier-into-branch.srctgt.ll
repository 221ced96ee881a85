; CLASS: j
; EXPECT: violated
; EXPECT-MESSAGE: barrier divergence
; A barrier sunk into a branch only some threads take: barrier divergence.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0() #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 0
  call void @llvm.nvvm.barrier0()
  br i1 %c, label %then, label %end
then:
  br label %end
end:
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

attributes #0 = { convergent nounwind }
