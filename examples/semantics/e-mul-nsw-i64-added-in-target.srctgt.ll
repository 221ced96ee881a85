; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.br.line
; EXPECT-explicit: inconclusive
; A target that adds `nsw` to a 64-bit multiplication that can overflow
; (x near 2^63 / 3) branches on poison there: undefined behaviour the
; source does not have. (Before, `mul nsw` wider than 32 bits was taken
; to be defined and this was preserved.) The explicit engine does not try
; such an x (class m: inexact domain).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @src(i64 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %s = add i64 %x, %t
  %m = mul  i64 %s, 3
  %c = icmp slt i64 %m, 5
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt(i64 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %s = add i64 %x, %t
  %m = mul nsw i64 %s, 3
  %c = icmp slt i64 %m, 5
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
