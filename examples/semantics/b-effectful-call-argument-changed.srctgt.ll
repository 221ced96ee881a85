; CLASS: b
; EXPECT: violated
; EXPECT-MESSAGE: call @ext (argument 1)
; The second argument of a call with unknown effects changed: the call's
; event carries its arguments.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @ext(i32, i32)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @ext(i32 7, i32 %tid)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t1 = add i32 %tid, 1
  call void @ext(i32 7, i32 %t1)
  ret void
}
