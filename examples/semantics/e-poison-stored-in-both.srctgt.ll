; CLASS: e
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; Both programs store `cttz(x, true)` (poison at x = 0), the target through
; `x | 0`: the same poison in the same runs, preserved.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %t = call i32 @llvm.cttz.i32(i32 %x, i1 true)
  store i32 %t, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %y = or i32 %x, 0
  %t = call i32 @llvm.cttz.i32(i32 %y, i1 true)
  store i32 %t, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.cttz.i32(i32, i1 immarg)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
