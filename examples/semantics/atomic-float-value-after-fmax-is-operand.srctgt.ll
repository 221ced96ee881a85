; CLASS: atomic
; EXPECT: violated
; ARGS: --threads 2
; The load after `atomicrmw fmax` replaced by the operand alone (the maximum
; is the old value where that is larger).
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) %sums, ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = getelementptr float, ptr addrspace(1) %sums, i32 %tid
  %pv = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %v = load float, ptr addrspace(1) %pv, align 4
  %before = load float, ptr addrspace(1) %c, align 4
  %old = atomicrmw fmax ptr addrspace(1) %c, float %v monotonic, align 4
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
  %old = atomicrmw fmax ptr addrspace(1) %c, float %v monotonic, align 4
  %after = fadd float %v, -0.000000e+00
  %b = bitcast float %after to i32
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %b, ptr addrspace(1) %q, align 4
  ret void
}
