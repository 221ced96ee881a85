; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: = poison` in the target
; The target adds `!nonnull` to a load of a pointer that may be null
; (LangRef, "load": the value is then poison), and stores it (review2 G3).
target triple = "nvptx64-nvidia-cuda"
@gp = addrspace(1) global ptr addrspace(1) null
@outp = addrspace(1) global ptr addrspace(1) null
declare ptr addrspace(1) @fp() memory(none) nounwind willreturn

define void @src() {
entry:
  %v = load ptr addrspace(1), ptr addrspace(1) @gp
  store ptr addrspace(1) %v, ptr addrspace(1) @outp
  ret void
}

define void @tgt() {
entry:
  %v = load ptr addrspace(1), ptr addrspace(1) @gp, !nonnull !0
  store ptr addrspace(1) %v, ptr addrspace(1) @outp
  ret void
}
!0 = !{}
!1 = !{i64 8}
