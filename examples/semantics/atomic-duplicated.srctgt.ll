; CLASS: atomic
; EXPECT: violated
; EXPECT-MESSAGE: atomicrmw add @hist
; `atomicAdd(&hist[b], 1)` run twice: every thread's events gain an
; atomic, and the histogram counts each element twice (DESIGN.md 2.6:
; atomics are events).
target triple = "nvptx64-nvidia-cuda"
@hist = addrspace(1) global [64 x i32] zeroinitializer

define void @src(i32 %b) {
entry:
  %i = and i32 %b, 63
  %p = getelementptr [64 x i32], ptr addrspace(1) @hist, i32 0, i32 %i
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic, align 4
  ret void
}

define void @tgt(i32 %b) {
entry:
  %i = and i32 %b, 63
  %p = getelementptr [64 x i32], ptr addrspace(1) @hist, i32 0, i32 %i
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic, align 4
  %again = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic, align 4
  ret void
}
