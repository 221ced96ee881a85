; CLASS: atomic
; EXPECT: violated
; ARGS: --threads 2
; A plain load after `atomicrmw fadd` on a float folded to the value loaded
; before it (stale: the atomic added to the location). Each thread adds to
; its own sum, so the load after the atomic reads what the atomic left.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) %sums, ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = getelementptr float, ptr addrspace(1) %sums, i32 %tid
  %pv = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %v = load float, ptr addrspace(1) %pv, align 4
  %before = load float, ptr addrspace(1) %c, align 4
  %old = atomicrmw fadd ptr addrspace(1) %c, float %v monotonic, align 4
  %after = load float, ptr addrspace(1) %c, align 4
  %b = bitcast float %after to i32
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %b, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %sums, ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = getelementptr float, ptr addrspace(1) %sums, i32 %tid
  %pv = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %v = load float, ptr addrspace(1) %pv, align 4
  %before = load float, ptr addrspace(1) %c, align 4
  %old = atomicrmw fadd ptr addrspace(1) %c, float %v monotonic, align 4
  %after = fadd float %before, -0.000000e+00
  %b = bitcast float %after to i32
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %b, ptr addrspace(1) %q, align 4
  ret void
}
