; CLASS: atomic
; EXPECT: violated
; EXPECT-MESSAGE: atomicrmw
; CUDA's `atomicAdd(float*, float)` (`atomicrmw fadd`) turned into
; `atomicrmw fsub` of the negated operand: the same value in memory in
; IEEE arithmetic, but another atomic operation with another operand,
; which the event names (a float atomic is an event as an integer one is).
target triple = "nvptx64-nvidia-cuda"
@sum = addrspace(1) global float 0.0

define void @src(float %x) {
entry:
  %old = atomicrmw fadd ptr addrspace(1) @sum, float %x monotonic, align 4
  ret void
}

define void @tgt(float %x) {
entry:
  %neg = fneg float %x
  %old = atomicrmw fsub ptr addrspace(1) @sum, float %neg monotonic, align 4
  ret void
}
