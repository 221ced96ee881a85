; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: undefined behaviour
; The target adds `noundef nonnull align 16` to a call's pointer argument
; that may be null or misaligned: poison passed to `noundef`, undefined
; behaviour (LangRef, "Parameter Attributes"; review2 G8).
target triple = "nvptx64-nvidia-cuda"
declare void @f(i32) nounwind
declare void @g(ptr addrspace(1)) nounwind

define void @src(i32 %x, ptr addrspace(1) %p) {
entry:
  call void @f(i32 %x)
  call void @g(ptr addrspace(1) %p)
  ret void
}

define void @tgt(i32 %x, ptr addrspace(1) %p) {
entry:
  call void @f(i32 %x)
  call void @g(ptr addrspace(1) noundef nonnull align 16 %p)
  ret void
}
