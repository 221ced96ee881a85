; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of atomicrmw add @count are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; Every thread adds to one counter in shared memory (no race: atomics never
; race with each other) and stores the old value it got at its own slot;
; the target reads the thread index before the atomic and computes the
; slot's address with a GEP of `i32`. The result of the k-th atomic of a thread is one free
; value in both programs.
target triple = "nvptx64-nvidia-cuda"
@count = addrspace(3) global i32 undef
@slots = addrspace(1) global [1024 x i32] zeroinitializer

define void @src() {
entry:
  %old = atomicrmw add ptr addrspace(3) @count, i32 1 monotonic, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [1024 x i32], ptr addrspace(1) @slots, i32 0, i32 %tid
  store i32 %old, ptr addrspace(1) %p
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %old = atomicrmw add ptr addrspace(3) @count, i32 1 monotonic, align 4
  %p = getelementptr i32, ptr addrspace(1) @slots, i32 %tid
  store i32 %old, ptr addrspace(1) %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
