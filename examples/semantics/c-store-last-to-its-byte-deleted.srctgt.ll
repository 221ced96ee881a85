; CLASS: c
; EXPECT: violated
; EXPECT-MESSAGE: store @g[0] byte 0 (the last
; The mutant of c-store-overwritten-deleted-by-dse: the store deleted is
; the last one to its bytes, so the segment leaves another value there.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global i32 0, align 4

define void @src(i32 %x) {
  store i32 1, ptr addrspace(1) @g, align 4
  store i32 %x, ptr addrspace(1) @g, align 4
  ret void
}

define void @tgt(i32 %x) {
  store i32 1, ptr addrspace(1) @g, align 4
  ret void
}
