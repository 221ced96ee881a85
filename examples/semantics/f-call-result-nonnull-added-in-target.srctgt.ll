; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: = poison` in the target
; The target adds `nonnull` to the result of a call that may return null
; (LangRef: a null result is then poison, and the stored value carries
; its definedness): less defined than the reference (review2 G3).
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
  %v = call nonnull ptr addrspace(1) @fp()
  store ptr addrspace(1) %v, ptr addrspace(1) @outp
  ret void
}
!0 = !{}
!1 = !{i64 8}
