; CLASS: c
; EXPECT: violated
; EXPECT-MESSAGE: store @g[1] byte 1 (the last
; SROA's split of c-store-struct-memcpy-split-by-sroa with the second
; field's value changed (x + 256 for y): the byte at offset 5 differs.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.S = type { i32, i32 }
@g = addrspace(1) global %struct.S zeroinitializer, align 8

define void @src(i32 %x, i32 %y) {
entry:
  store i64 0, ptr addrspace(1) @g, align 8
  store i32 %y, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @g, i64 4), align 4
  ret void
}

define void @tgt(i32 %x, i32 %y) {
entry:
  %z = add i32 %y, 256
  store i32 0, ptr addrspace(1) @g, align 8
  store i32 %z, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @g, i64 4), align 4
  ret void
}
