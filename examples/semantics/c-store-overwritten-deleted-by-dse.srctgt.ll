; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; review3 H17 (cases ds-3/ds-4, opt-19 -passes=dse): a store overwritten
; before any synchronisation point is deleted. No other thread can see it
; without a race (semantics.md, class c).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global i32 0, align 4

define void @src(i32 %x) {
  store i32 1, ptr addrspace(1) @g, align 4
  store i32 %x, ptr addrspace(1) @g, align 4
  ret void
}

define void @tgt(i32 %x) {
  store i32 %x, ptr addrspace(1) @g, align 4
  ret void
}
