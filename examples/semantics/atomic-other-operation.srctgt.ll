; CLASS: atomic
; EXPECT: violated
; EXPECT-MESSAGE: atomicrmw
; `atomicrmw add` turned into `atomicrmw sub` with the same operand: the
; event names its operation.
target triple = "nvptx64-nvidia-cuda"
@count = addrspace(1) global i32 0

define void @src() {
entry:
  %old = atomicrmw add ptr addrspace(1) @count, i32 1 monotonic, align 4
  ret void
}

define void @tgt() {
entry:
  %old = atomicrmw sub ptr addrspace(1) @count, i32 1 monotonic, align 4
  ret void
}
