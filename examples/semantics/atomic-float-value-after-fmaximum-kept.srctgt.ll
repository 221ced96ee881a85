; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; (Alone, the explicit engine's domains are inexact (addresses through
; arithmetic), and the product compares every load, so a removed load sends
; it to the explicit engine; the default engine order decides the pair.)
; ARGS: --threads 2
; The load after `atomicrmw fmaximum` replaced by what the atomic left:
; `llvm.maximum` of the value it returned and its operand (IEEE 754-2019
; maximum: a NaN operand gives a NaN, -0.0 below +0.0), as where no other
; thread writes the location. Before the model gave `fmaximum` its value
; in memory, the reference's load read the location's value from before
; the atomic, so this pair would have been reported.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.maximum.f32(float, float)

define void @src(ptr addrspace(1) %sums, ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = getelementptr float, ptr addrspace(1) %sums, i32 %tid
  %pv = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %v = load float, ptr addrspace(1) %pv, align 4
  %before = load float, ptr addrspace(1) %c, align 4
  %old = atomicrmw fmaximum ptr addrspace(1) %c, float %v monotonic, align 4
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
  %old = atomicrmw fmaximum ptr addrspace(1) %c, float %v monotonic, align 4
  %after = call float @llvm.maximum.f32(float %old, float %v)
  %b = bitcast float %after to i32
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %b, ptr addrspace(1) %q, align 4
  ret void
}
