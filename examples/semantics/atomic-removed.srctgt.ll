; CLASS: atomic
; EXPECT: violated
; EXPECT-MESSAGE: atomicrmw add @hist
; An atomic whose result is unused is still an effect: deleting it (as a
; pass that took it for a dead load would) loses the update.
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
  ret void
}
