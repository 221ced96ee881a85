; CLASS: f
; EXPECT: violated
; The target adds `llvm.assume` operand bundles `"align"(%p, 16)` and
; `"nonnull"(%p)` (review3 H7; LangRef "Assume Operand Bundles": a false
; one is undefined behaviour): p = null or p = 4 is a legal run of the
; reference, undefined in the target.
target triple = "nvptx64-nvidia-cuda"
@outp = addrspace(1) global ptr addrspace(1) null
declare void @llvm.assume(i1)

define void @src(ptr addrspace(1) %p) {
  call void @llvm.assume(i1 true)
  store ptr addrspace(1) %p, ptr addrspace(1) @outp
  ret void
}

define void @tgt(ptr addrspace(1) %p) {
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(1) %p, i64 16), "nonnull"(ptr addrspace(1) %p) ]
  store ptr addrspace(1) %p, ptr addrspace(1) @outp
  ret void
}
