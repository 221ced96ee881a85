; CLASS: b
; EXPECT: violated
; EXPECT-MESSAGE: call @ext
; A call to an external function with unknown memory effects is an
; observable event with its arguments (DESIGN.md 2.7, item 1): deleting it
; is caught (docs/src/semantics.md, "Calls that may have effects").
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @ext(i32)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @ext(i32 %tid)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret void
}
