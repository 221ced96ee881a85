; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: undefined behaviour
; The target adds `noundef range(i32 0, 10)` to a call's argument that may
; be 20: poison passed to `noundef`, undefined behaviour (LangRef,
; "Parameter Attributes"; review2 G8).
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
  call void @f(i32 noundef range(i32 0, 10) %x)
  call void @g(ptr addrspace(1) %p)
  ret void
}
