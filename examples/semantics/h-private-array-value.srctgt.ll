; CLASS: h
; EXPECT: violated
; A private array holds what the thread stored: a changed value read back
; changes which threads vote.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote() #0

define void @src() #0 {
entry:
  %a = alloca [4 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 3
  %p = getelementptr [4 x i32], ptr %a, i32 0, i32 %i
  store i32 %tid, ptr %p, align 4
  %v = load i32, ptr %p, align 4
  %c = icmp ugt i32 %v, 4
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

define void @tgt() #0 {
entry:
  %a = alloca [4 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 3
  %p = getelementptr [4 x i32], ptr %a, i32 0, i32 %i
  store i32 %i, ptr %p, align 4
  %v = load i32, ptr %p, align 4
  %c = icmp ugt i32 %v, 4
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

attributes #0 = { convergent nounwind }
