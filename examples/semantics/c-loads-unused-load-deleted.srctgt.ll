; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the loaded and stored
; values are inexact; the product answers.)
; EXPECT-smt: inconclusive
; (Under --engine smt: the programs differ only in a load, and the second
; search finds no scenario in which the observed events differ; see
; c-loads-gvn-forwards-across-inaccessiblemem-and-argmem-calls.)
; Control of c-loads-one-forwarded-across-barrier: a load of @b after the
; barrier whose value nothing uses is deleted (DCE, GVN); the load of @c
; after it stays.
target triple = "nvptx64-nvidia-cuda"
@a = addrspace(1) global [4 x i32] zeroinitializer
@b = addrspace(1) global i32 0
@c = addrspace(1) global i32 0
@g = addrspace(1) global i32 0
@out = addrspace(1) global [4 x i32] zeroinitializer
declare void @inacc(i32) nounwind memory(inaccessiblemem: readwrite)
declare void @w(ptr addrspace(1)) nounwind memory(argmem: write)
declare void @ext(i32) nounwind
declare void @llvm.nvvm.barrier0() convergent nounwind

define void @src(i32 %x, i32 %y, i32 %z) {
entry:
  store i32 %z, ptr addrspace(1) @c
  call void @llvm.nvvm.barrier0()
  %d = load i32, ptr addrspace(1) @b
  %t = load i32, ptr addrspace(1) @c
  %o2 = getelementptr i32, ptr addrspace(1) @out, i32 2
  store i32 %t, ptr addrspace(1) %o2
  ret void
}

define void @tgt(i32 %x, i32 %y, i32 %z) {
entry:
  store i32 %z, ptr addrspace(1) @c
  call void @llvm.nvvm.barrier0()
  %t = load i32, ptr addrspace(1) @c
  %o2 = getelementptr i32, ptr addrspace(1) @out, i32 2
  store i32 %t, ptr addrspace(1) %o2
  ret void
}
