; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the loaded and stored
; values are inexact; the product answers.)
; EXPECT-smt: inconclusive
; (Under --engine smt: the programs differ only in the loads GVN deleted,
; and the product's second search finds no scenario in which the observed
; events differ; it hands the pair to the explicit engine, inexact as
; above, which the default engine's check of the hazards completes.)
; Control of the several-loads cases below (issue 20, the product's search
; weakness): the target is opt-19 -passes=gvn's output. GVN forwards @g's
; value across the memory(inaccessiblemem: readwrite) call (it cannot write
; @g) and @b's across the memory(argmem: write) call on @a (another
; object), and keeps the load of @c after the barrier (another thread may
; have written @c).
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
  store i32 %x, ptr addrspace(1) @g, align 4
  call void @inacc(i32 %x)
  store i32 %x, ptr addrspace(1) @out, align 4
  store i32 %y, ptr addrspace(1) @b, align 4
  call void @w(ptr addrspace(1) @a)
  store i32 %y, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @out, i64 4), align 4
  store i32 %z, ptr addrspace(1) @c, align 4
  call void @llvm.nvvm.barrier0()
  %t = load i32, ptr addrspace(1) @c, align 4
  store i32 %t, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @out, i64 8), align 4
  ret void
}
