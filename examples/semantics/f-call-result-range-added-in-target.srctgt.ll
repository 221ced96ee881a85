; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: undefined behaviour
; The target adds `noundef range(i32 0, 10)` to a call that may return
; 10: undefined behaviour where the reference is defined.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @level()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call  i32 @level()
  store i32 %v, ptr addrspace(1) %slot
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call noundef range(i32 0, 10) i32 @level()
  store i32 %v, ptr addrspace(1) %slot
  ret void
}
