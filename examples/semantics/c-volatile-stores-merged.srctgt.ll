; CLASS: c
; EXPECT: violated
; EXPECT-MESSAGE: volatile store
; Two volatile stores merged into the last one: volatile accesses are
; observed one by one (LangRef), never by the bytes they leave.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global i32 0, align 4

define void @src(i32 %x) {
  store volatile i32 1, ptr addrspace(1) @g, align 4
  store volatile i32 %x, ptr addrspace(1) @g, align 4
  ret void
}

define void @tgt(i32 %x) {
  store volatile i32 %x, ptr addrspace(1) @g, align 4
  ret void
}
