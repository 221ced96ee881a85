; CLASS: b
; EXPECT: preserved
; A call with unknown effects after a join duplicated into both arms
; (CallSiteSplitting, jump threading), each with the argument its arm
; knows: every thread makes the same call with the same argument.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @ext(i32)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, 2
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %v = phi i32 [ 5, %a ], [ %tid, %b ]
  call void @ext(i32 %v)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, 2
  br i1 %c, label %a, label %b
a:
  call void @ext(i32 5)
  br label %join
b:
  call void @ext(i32 %tid)
  br label %join
join:
  ret void
}
