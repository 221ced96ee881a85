; CLASS: f
; EXPECT: inconclusive
; EXPECT-MESSAGE: llvm.assume operand bundle "dereferenceable"
; An `llvm.assume` bundle the model does not read (`dereferenceable`) is
; outside the model, named (review3 H7): ignoring it in a target could
; hide a target less defined than its reference.
target triple = "nvptx64-nvidia-cuda"
@outp = addrspace(1) global ptr addrspace(1) null
declare void @llvm.assume(i1)

define void @src(ptr addrspace(1) %p) {
  store ptr addrspace(1) %p, ptr addrspace(1) @outp
  ret void
}

define void @tgt(ptr addrspace(1) %p) {
  call void @llvm.assume(i1 true) [ "dereferenceable"(ptr addrspace(1) %p, i64 64) ]
  store ptr addrspace(1) %p, ptr addrspace(1) @outp
  ret void
}
