; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the loaded and stored
; values are inexact; the product decides the pair.)
; Issue 20, the product's search weakness (was preserved): in a function
; with several loads, the target forwards the value stored to @c before the
; barrier to the load after it, which may read what another thread stored
; in the next phase. The product's first model differs only in the
; target's missing load (every value 0); it searches again over the
; observed events and finds a scenario in which @c's value after the
; barrier is not %z.
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
  store i32 %x, ptr addrspace(1) @g
  call void @inacc(i32 %x)
  %v = load i32, ptr addrspace(1) @g
  store i32 %v, ptr addrspace(1) @out
  store i32 %y, ptr addrspace(1) @b
  call void @w(ptr addrspace(1) @a)
  %u = load i32, ptr addrspace(1) @b
  %o1 = getelementptr i32, ptr addrspace(1) @out, i32 1
  store i32 %u, ptr addrspace(1) %o1
  store i32 %z, ptr addrspace(1) @c
  call void @llvm.nvvm.barrier0()
  %t = load i32, ptr addrspace(1) @c
  %o2 = getelementptr i32, ptr addrspace(1) @out, i32 2
  store i32 %t, ptr addrspace(1) %o2
  ret void
}

define void @tgt(i32 %x, i32 %y, i32 %z) {
entry:
  store i32 %x, ptr addrspace(1) @g
  call void @inacc(i32 %x)
  %v = load i32, ptr addrspace(1) @g
  store i32 %v, ptr addrspace(1) @out
  store i32 %y, ptr addrspace(1) @b
  call void @w(ptr addrspace(1) @a)
  %u = load i32, ptr addrspace(1) @b
  %o1 = getelementptr i32, ptr addrspace(1) @out, i32 1
  store i32 %u, ptr addrspace(1) %o1
  store i32 %z, ptr addrspace(1) @c
  call void @llvm.nvvm.barrier0()
  %o2 = getelementptr i32, ptr addrspace(1) @out, i32 2
  store i32 %z, ptr addrspace(1) %o2
  ret void
}
