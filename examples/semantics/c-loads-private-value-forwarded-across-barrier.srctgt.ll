; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the loaded and stored
; values are inexact; the product answers.)
; EXPECT-smt: inconclusive
; (Under --engine smt: the programs differ only in loads, and the second
; search finds no scenario in which the observed events differ; see
; c-loads-gvn-forwards-across-inaccessiblemem-and-argmem-calls.)
; Control of c-loads-one-forwarded-across-barrier: the value forwarded
; across the barrier is one only this thread wrote, to its private memory
; (an alloca nobody captured), which no other thread can write; @g's value
; is forwarded within one barrier phase. Both legal, as GVN does; the load
; of @c after the barrier stays.
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
  %s = alloca i32, align 4, addrspace(5)
  store i32 %y, ptr addrspace(5) %s
  store i32 %x, ptr addrspace(1) @g
  %v = load i32, ptr addrspace(1) @g
  store i32 %v, ptr addrspace(1) @out
  store i32 %z, ptr addrspace(1) @c
  call void @llvm.nvvm.barrier0()
  %p = load i32, ptr addrspace(5) %s
  %t = load i32, ptr addrspace(1) @c
  %o1 = getelementptr i32, ptr addrspace(1) @out, i32 1
  store i32 %p, ptr addrspace(1) %o1
  %o2 = getelementptr i32, ptr addrspace(1) @out, i32 2
  store i32 %t, ptr addrspace(1) %o2
  ret void
}

define void @tgt(i32 %x, i32 %y, i32 %z) {
entry:
  store i32 %x, ptr addrspace(1) @g
  store i32 %x, ptr addrspace(1) @out
  store i32 %z, ptr addrspace(1) @c
  call void @llvm.nvvm.barrier0()
  %t = load i32, ptr addrspace(1) @c
  %o1 = getelementptr i32, ptr addrspace(1) @out, i32 1
  store i32 %y, ptr addrspace(1) %o1
  %o2 = getelementptr i32, ptr addrspace(1) @out, i32 2
  store i32 %t, ptr addrspace(1) %o2
  ret void
}
