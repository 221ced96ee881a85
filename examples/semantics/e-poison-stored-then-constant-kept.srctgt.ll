; CLASS: e
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; The control of `e-poison-stored-then-constant-changed`: the target stores
; a defined value where the reference stores poison (`add nsw` against
; `add`), then the same constant 5. A target may be more defined than its
; reference, so the first store may be anything where the reference's is
; poison, and the second agrees: no violation.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [2048 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %s = add nsw i32 %x, 1
  store i32 %s, ptr addrspace(1) %slot
  %tid2 = add i32 %tid, 1024
  %slot2 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid2
  store i32 5, ptr addrspace(1) %slot2
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %s = add i32 %x, 1
  store i32 %s, ptr addrspace(1) %slot
  %tid2 = add i32 %tid, 1024
  %slot2 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid2
  store i32 5, ptr addrspace(1) %slot2
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
