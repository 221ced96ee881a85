; CLASS: atomic
; EXPECT: inconclusive
; EXPECT-MESSAGE: scope narrowed
; A `monotonic` atomicrmw narrowed to syncscope("singlethread") (review2
; G4, st-1 -> st-2): no ordering is lost, but the add is atomic only
; with respect to its own thread, so two threads' adds may race (LangRef,
; "syncscope"). Inconclusive (checker/src/llvm/orderings.rs).
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global i32 0

define void @src() {
entry:
  %o = atomicrmw add ptr addrspace(1) @g, i32 1 monotonic
  ret void
}

define void @tgt() {
entry:
  %o = atomicrmw add ptr addrspace(1) @g, i32 1 syncscope("singlethread") monotonic
  ret void
}
