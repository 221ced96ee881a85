; CLASS: c
; EXPECT: preserved
; InstCombine folds a load of a constant global into its value, and the
; table lookup into a comparison: the same values, no alarm.
@k = addrspace(4) constant i32 5
@table = addrspace(4) constant [4 x i8] c"\01\00\01\00"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote(i32) #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %k = load i32, ptr addrspace(4) @k
  %i = and i32 %tid, 3
  %p = getelementptr [4 x i8], ptr addrspace(4) @table, i32 0, i32 %i
  %v = load i8, ptr addrspace(4) %p
  %c = icmp ne i8 %v, 0
  br i1 %c, label %then, label %end
then:
  call void @vote(i32 %k)
  br label %end
end:
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %then, label %end
then:
  call void @vote(i32 5)
  br label %end
end:
  ret void
}

attributes #0 = { convergent nounwind }
