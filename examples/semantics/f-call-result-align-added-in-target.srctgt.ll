; CLASS: f
; EXPECT: violated
; EXPECT-explicit: inconclusive
; EXPECT-MESSAGE: = poison` in the target
; The target adds `align 16` to the result of a call that may return a
; misaligned pointer: poison there, stored (review2 G3).
; Explicit: inconclusive, it cannot try every pointer value (inexact domains).
target triple = "nvptx64-nvidia-cuda"
@gp = addrspace(1) global ptr addrspace(1) null
@outp = addrspace(1) global ptr addrspace(1) null
declare ptr addrspace(1) @fp() memory(none) nounwind willreturn

define void @src() {
entry:
  %v = call ptr addrspace(1) @fp()
  store ptr addrspace(1) %v, ptr addrspace(1) @outp
  ret void
}

define void @tgt() {
entry:
  %v = call align 16 ptr addrspace(1) @fp()
  store ptr addrspace(1) %v, ptr addrspace(1) @outp
  ret void
}
!0 = !{}
!1 = !{i64 8}
