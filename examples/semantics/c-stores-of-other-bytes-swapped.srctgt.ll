; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; Two stores to different bytes of @g swapped within one segment (no
; synchronisation point between them): each byte's last value is the
; same, so nothing another thread may see without a race changes.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [2 x i32] zeroinitializer, align 4

define void @src(i32 %x, i32 %y) {
  store i32 %x, ptr addrspace(1) @g, align 4
  store i32 %y, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @g, i64 4), align 4
  ret void
}

define void @tgt(i32 %x, i32 %y) {
  store i32 %y, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @g, i64 4), align 4
  store i32 %x, ptr addrspace(1) @g, align 4
  ret void
}
