; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; As c-unreadable-constant-table-other-element, at an index the mapping
; cannot tell (the thread index): such a load reads memory, a value named
; by the location, so reading element (tid & 1) ^ 1 instead of tid & 1
; is a change.
; Explicit: inconclusive, it tries too few values of @c (inexact domains).
target triple = "nvptx64-nvidia-cuda"
@a = addrspace(1) global i32 0
@c = addrspace(4) constant [2 x i64] [i64 7, i64 ptrtoint (ptr addrspace(1) @a to i64)]
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @f(i64)

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 1
  %p = getelementptr [2 x i64], ptr addrspace(4) @c, i32 0, i32 %i
  %v = load i64, ptr addrspace(4) %p, align 8
  call void @f(i64 %v)
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 1
  %j = xor i32 %i, 1
  %p = getelementptr [2 x i64], ptr addrspace(4) @c, i32 0, i32 %j
  %v = load i64, ptr addrspace(4) %p, align 8
  call void @f(i64 %v)
  ret void
}
