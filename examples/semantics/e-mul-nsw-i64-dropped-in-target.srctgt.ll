; CLASS: e
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; Dropping `nsw` from a 64-bit multiplication makes the target more
; defined: preserved.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @src(i64 %x) #0 {
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

define void @tgt(i64 %x) #0 {
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

attributes #0 = { convergent nounwind }
