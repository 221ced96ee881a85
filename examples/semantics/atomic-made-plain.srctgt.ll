; CLASS: atomic
; EXPECT: violated
; `atomicAdd(&count, 1)` replaced by a plain load, add and store: the
; threads now race on `count` and every thread's events change.
target triple = "nvptx64-nvidia-cuda"
@count = addrspace(3) global i32 undef

define void @src() {
entry:
  %old = atomicrmw add ptr addrspace(3) @count, i32 1 monotonic, align 4
  ret void
}

define void @tgt() {
entry:
  %v = load i32, ptr addrspace(3) @count
  %n = add i32 %v, 1
  store i32 %n, ptr addrspace(3) @count
  ret void
}
