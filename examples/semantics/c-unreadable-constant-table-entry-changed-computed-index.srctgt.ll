; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; As c-unreadable-constant-table-entry-changed, at an index the mapping
; cannot tell (the thread index), where the load reads memory: the
; table's location carries a hash of its initializer (`memory.rs`,
; `Globals::new`), so the target's other initializer is another object
; and its values are other free values.
; Explicit: inconclusive, it tries too few values of @c (inexact domains).
target triple = "nvptx64-nvidia-cuda"
@a = addrspace(1) global i32 0
@c = addrspace(4) constant [2 x i64] [i64 7, i64 ptrtoint (ptr addrspace(1) @a to i64)] ; only: src
@c = addrspace(4) constant [2 x i64] [i64 8, i64 ptrtoint (ptr addrspace(1) @a to i64)] ; only: tgt
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
@out = addrspace(1) global i64 0

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 1
  %p = getelementptr [2 x i64], ptr addrspace(4) @c, i32 0, i32 %i
  %v = load i64, ptr addrspace(4) %p, align 8
  store i64 %v, ptr addrspace(1) @out
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 1
  %p = getelementptr [2 x i64], ptr addrspace(4) @c, i32 0, i32 %i
  %v = load i64, ptr addrspace(4) %p, align 8
  store i64 %v, ptr addrspace(1) @out
  ret void
}
