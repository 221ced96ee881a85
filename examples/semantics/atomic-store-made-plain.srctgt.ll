; CLASS: atomic
; EXPECT: violated
; EXPECT-MESSAGE: store atomic
; A `store atomic` made a plain store: every thread writes the same flag in
; one phase, which atomics may do and plain stores may not (a data race in
; the target alone).
target triple = "nvptx64-nvidia-cuda"
@flag = addrspace(1) global i32 0

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store atomic i32 %tid, ptr addrspace(1) @flag monotonic, align 4
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr addrspace(1) @flag, align 4
  ret void
}
