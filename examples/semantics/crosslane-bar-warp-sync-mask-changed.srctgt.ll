; CLASS: crosslane
; EXPECT: violated
; `llvm.nvvm.bar.warp.sync` (CUDA's `__syncwarp(mask)`) is convergent by its
; definition (IntrinsicsNVVM.td: IntrConvergent) whatever the declaration
; says: a warp operation whose mask is observed. The target synchronizes
; half the warp instead of all of it.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.bar.warp.sync(i32)

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %tid, ptr addrspace(1) %p, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.nvvm.bar.warp.sync(i32 65535)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %tid, ptr addrspace(1) %p, align 4
  ret void
}
