; CLASS: e
; EXPECT: violated
; The reference reads a slot nothing was stored to (`undef`) and freezes
; it once: both stores write one value, whatever the reference chooses.
; A target that stores 0 and then 1 matches no choice of the reference.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [2048 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %a = alloca i32, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %tid2 = add i32 %tid, 1024
  %slot2 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid2
  %v = load i32, ptr %a
  %f = freeze i32 %v
  store i32 %f, ptr addrspace(1) %slot
  store i32 %f, ptr addrspace(1) %slot2
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %tid2 = add i32 %tid, 1024
  %slot2 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid2
  store i32 0, ptr addrspace(1) %slot
  store i32 1, ptr addrspace(1) %slot2
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
