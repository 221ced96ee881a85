; CLASS: c
; EXPECT: violated
; A store of data moved below the release fence that publishes it: a
; fence is a synchronisation point, so the data store's byte is left in
; another segment (the message-passing idiom's order is lost).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@data = addrspace(1) global i32 0, align 4
@flag = addrspace(1) global i32 0, align 4

define void @src(i32 %x) {
  store i32 %x, ptr addrspace(1) @data, align 4
  fence release
  store atomic i32 1, ptr addrspace(1) @flag monotonic, align 4
  ret void
}

define void @tgt(i32 %x) {
  fence release
  store i32 %x, ptr addrspace(1) @data, align 4
  store atomic i32 1, ptr addrspace(1) @flag monotonic, align 4
  ret void
}
