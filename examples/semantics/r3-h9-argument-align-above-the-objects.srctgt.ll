; CLASS: g
; EXPECT: violated
; review3 H9: the target adds to a call argument `noundef align 16 @g`
; of a global only `align 4`: @g may lie at 4 mod 16, where the fact
; fails (LangRef: poison, with noundef undefined behaviour). Main took
; every object as 2^32-aligned and proved it.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [1 x i32] zeroinitializer, align 4
declare void @f(ptr addrspace(1)) nounwind willreturn memory(argmem: readwrite)

define void @src() {
  call void @f(ptr addrspace(1) @g)
  ret void
}

define void @tgt() {
  call void @f(ptr addrspace(1) noundef align 16 @g)
  ret void
}
