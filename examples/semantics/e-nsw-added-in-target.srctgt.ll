; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.br.line
; EXPECT-explicit: inconclusive
; A target that adds `nsw` to an addition that can overflow (x = 2^31 - 1,
; tid 1) branches on poison there: undefined behaviour the source does not
; have. The explicit engine tries the constants the program compares with,
; not 2^31 - 1, so it finds nothing; `x` reaches the branch through an
; addition it does not invert (an inexact domain), so alone it answers
; inconclusive, naming `x` (class m).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @src(i32 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s = add i32 %x, %tid
  %c = icmp slt i32 %s, 5
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
  %s = add nsw i32 %x, %tid
  %c = icmp slt i32 %s, 5
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
