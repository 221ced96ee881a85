; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; A store of i24 writes its store size, 3 bytes (LangRef), not its
; allocation size: byte 3 of `@g` keeps its old value, so the i32 load
; is not zext(x).
; Explicit: inconclusive, the explicit engine tries too few values of @g and x to tell (inexact domains).
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global i32 0, align 4
declare void @f(i32)

define void @src(i24 %x) {
entry:
  store i24 %x, ptr addrspace(1) @g, align 4
  %w = load i32, ptr addrspace(1) @g, align 4
  call void @f(i32 %w)
  ret void
}

define void @tgt(i24 %x) {
entry:
  store i24 %x, ptr addrspace(1) @g, align 4
  %w = zext i24 %x to i32
  call void @f(i32 %w)
  ret void
}
