; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; A constant table whose initializer convcheck cannot read (a ptrtoint
; constant expression): a read at a known offset is the value of that
; offset, so reading element 1 instead of element 0 is a change.
; Explicit: inconclusive, the explicit engine tries too few values of the two unknown elements to tell (inexact domains).
target triple = "nvptx64-nvidia-cuda"
@a = addrspace(1) global i32 0
@c = addrspace(4) constant [2 x i64] [i64 7, i64 ptrtoint (ptr addrspace(1) @a to i64)]
declare void @f(i64)

define void @src() {
entry:
  %v = load i64, ptr addrspace(4) @c, align 8
  call void @f(i64 %v)
  ret void
}

define void @tgt() {
entry:
  %p = getelementptr [2 x i64], ptr addrspace(4) @c, i64 0, i64 1
  %v = load i64, ptr addrspace(4) %p, align 8
  call void @f(i64 %v)
  ret void
}
