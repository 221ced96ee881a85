; CLASS: e
; EXPECT: preserved
; `and i32 undef, 0` is 0 whatever undef is (LangRef), so branching on a
; comparison of it is defined: the target's constant is the same value.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @src(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %u = and i32 undef, 0
  %c = icmp eq i32 %u, %tid
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 0, %tid
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
