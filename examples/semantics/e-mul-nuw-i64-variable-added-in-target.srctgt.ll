; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.br.line
; EXPECT-explicit: inconclusive
; `nuw` added to a 64-bit square of a variable (no constant operand: the
; overflow test divides the product back): overflows at x = 2^32.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @src(i64 %x) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %s = add i64 %x, %t
  %m = mul  i64 %s, %s
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
  %m = mul nuw i64 %s, %s
  %c = icmp slt i64 %m, 5
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
