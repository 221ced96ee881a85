; CLASS: e
; EXPECT: violated
; One `freeze i32 undef` used twice: both stores write the same value in
; every reference run, whatever the reference chooses. A target that
; stores 0 and then 1 matches no choice of the reference, so it is less
; defined, although each constant alone is a value the reference may
; choose.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [2048 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %tid2 = add i32 %tid, 1024
  %slot2 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid2
  %f = freeze i32 undef
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
