; CLASS: b
; EXPECT: violated
; Calls of two external functions with unknown effects swapped: each
; call's event is in the thread's sequence, so the order across callees
; counts too.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @f()
declare void @g()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @f()
  call void @g()
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @g()
  call void @f()
  ret void
}
