; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; (The explicit engine's domains are inexact (addresses through
; arithmetic), and the product compares every load, so a removed load sends
; it back to the explicit engine ("not modelled"). The default engine
; answered preserved until 2026-11-29: a product search that ends "not
; modelled" no longer leaves the explicit engine's preserved standing
; where its domains were inexact (review3 H15), so this is inconclusive
; under every engine, as it should be while no engine covers it. Since
; free memory is named per byte in every engine (2026-11-29, afternoon),
; the product's second search ends with no scenario within bounds in which
; the observed events differ, so the default engine's verdict is the
; explicit engine's, preserved, as for c-loads-unused-load-deleted.)
; ARGS: --threads 2
; The load after `atomicrmw fmax` replaced by what the atomic left:
; `llvm.maxnum` of the value it returned and its operand (LangRef), as
; where no other thread writes the location. Before the model gave a float
; atomicrmw its value in memory, the reference's load read the location's
; value from before the atomic, so this pair would have been reported.
; (`fmaximum` and `fminimum`, LLVM 20 and later, leave `llvm.maximum` and
; `llvm.minimum` alike; opt-19 cannot read them, and every `.ll` file here
; is read by it: model/llvm/tests/verifier_agrees.rs.)
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.maxnum.f32(float, float)

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
  %after = call float @llvm.maxnum.f32(float %old, float %v)
  %b = bitcast float %after to i32
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %b, ptr addrspace(1) %q, align 4
  ret void
}
