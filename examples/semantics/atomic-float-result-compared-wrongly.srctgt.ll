; CLASS: atomic
; EXPECT: violated
; As atomic-float-result-compared, with `olt` turned into `ult`: they
; differ where the free float `atomicrmw fmax` returns is a NaN.
target triple = "nvptx64-nvidia-cuda"
@best = addrspace(1) global float 0.0

declare i32 @__ballot_sync(i32, i32) convergent

define i32 @src(float %x) {
entry:
  %old = atomicrmw fmax ptr addrspace(1) @best, float %x monotonic, align 4
  %raised = fcmp olt float %old, %x
  %b = zext i1 %raised to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %b)
  ret i32 %who
}

define i32 @tgt(float %x) {
entry:
  %old = atomicrmw fmax ptr addrspace(1) @best, float %x monotonic, align 4
  %raised = fcmp ult float %old, %x
  %b = zext i1 %raised to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %b)
  ret i32 %who
}
