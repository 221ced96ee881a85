; CLASS: c
; EXPECT: violated
; EXPECT-MESSAGE: store @g[0] byte 0 (the last
; Two stores to the same bytes swapped: the last value differs (where x
; is not 1).
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
  store i32 1, ptr addrspace(1) @g, align 4
  ret void
}
