; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.br.line
; `select %c, i1 true, i1 undef` is undef where %c is false, and branching
; on it is undefined behaviour; the source's `select` picks `false`.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @src(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp slt i32 %tid, 1
  %d = select i1 %c, i1 true, i1 false
  br i1 %d, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp slt i32 %tid, 1
  %d = select i1 %c, i1 true, i1 undef
  br i1 %d, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
