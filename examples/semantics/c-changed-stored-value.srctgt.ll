; CLASS: c
; EXPECT: violated
; A thread stores a value to shared memory and reads it back to decide a
; vote; the target stores another value (issue 20, class c: preserved
; before stored values were compared).
@buf = addrspace(3) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote() #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 1, ptr addrspace(3) %p
  %v = load i32, ptr addrspace(3) %p
  %c = icmp eq i32 %v, 1
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 2, ptr addrspace(3) %p
  %v = load i32, ptr addrspace(3) %p
  %c = icmp eq i32 %v, 1
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

attributes #0 = { convergent nounwind }
