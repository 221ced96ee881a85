; CLASS: b
; EXPECT: violated
; Two calls with unknown effects swapped: the thread's events come in
; another order.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @ext(i32)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @ext(i32 1)
  call void @ext(i32 2)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @ext(i32 2)
  call void @ext(i32 1)
  ret void
}
