; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; A constant table convcheck cannot read (an entry is a `ptrtoint`
; constant expression): the target's module holds another value in entry
; 1, which the kernel stores. The value read at a known offset is named
; with a hash of the initializer (`constants.rs`, `table_read`), so two
; initializers give two values. Red-team review of 2026-11-29 (review3
; H11): main proved it, by structure, under every engine. Explicit:
; inconclusive, it tries too few values of @c (inexact domains).
target triple = "nvptx64-nvidia-cuda"
@a = addrspace(1) global i32 0
@c = addrspace(1) constant [2 x i64] [i64 ptrtoint (ptr addrspace(1) @a to i64), i64 5] ; only: src
@c = addrspace(1) constant [2 x i64] [i64 ptrtoint (ptr addrspace(1) @a to i64), i64 6] ; only: tgt
@out = addrspace(1) global i64 0

define void @src() {
  %p = getelementptr inbounds [2 x i64], ptr addrspace(1) @c, i64 0, i64 1
  %v = load i64, ptr addrspace(1) %p
  store i64 %v, ptr addrspace(1) @out
  ret void
}

define void @tgt() {
  %p = getelementptr inbounds [2 x i64], ptr addrspace(1) @c, i64 0, i64 1
  %v = load i64, ptr addrspace(1) %p
  store i64 %v, ptr addrspace(1) @out
  ret void
}
