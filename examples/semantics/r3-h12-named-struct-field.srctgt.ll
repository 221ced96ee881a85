; CLASS: f
; EXPECT: inconclusive
; EXPECT-MESSAGE: aggregates
; `extractvalue %struct.P` of a named struct type (review3 H12): valid IR,
; outside the model (aggregates), so the function is inconclusive, naming
; the construct, not rejected as input.
target triple = "nvptx64-nvidia-cuda"
%struct.P = type { float, float }
@out = addrspace(1) global float 0.0

define internal %struct.P @mk(float %a) {
  %r = insertvalue %struct.P undef, float %a, 0
  %s = insertvalue %struct.P %r, float %a, 1
  ret %struct.P %s
}

define void @src(float %a) {
  %p = call %struct.P @mk(float %a)
  %x = extractvalue %struct.P %p, 1
  store float %x, ptr addrspace(1) @out
  ret void
}

define void @tgt(float %a) {
  %p = call %struct.P @mk(float %a)
  %x = extractvalue %struct.P %p, 0
  store float %x, ptr addrspace(1) @out
  ret void
}
