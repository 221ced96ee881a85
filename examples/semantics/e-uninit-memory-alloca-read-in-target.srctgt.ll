; CLASS: e
; EXPECT: violated
; A private array kept in memory (its address goes to @use): the
; reference stores 5 to an element before it reads it, the target reads
; the element before the store, where nothing was stored (`undef`, any
; value the target picks), so it stores a value other than 5 in some
; run: less defined than the reference.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0

declare void @use(ptr)

define void @src(i32 %x) {
entry:
  %a = alloca [2 x i32], align 4
  %p = getelementptr [2 x i32], ptr %a, i32 0, i32 1
  store i32 5, ptr %p, align 4
  %v = load i32, ptr %p, align 4
  %w = freeze i32 %v
  store i32 %w, ptr addrspace(1) @out, align 4
  call void @use(ptr %a)
  ret void
}

define void @tgt(i32 %x) {
entry:
  %a = alloca [2 x i32], align 4
  %p = getelementptr [2 x i32], ptr %a, i32 0, i32 1
  %v = load i32, ptr %p, align 4
  store i32 5, ptr %p, align 4
  %w = freeze i32 %v
  store i32 %w, ptr addrspace(1) @out, align 4
  call void @use(ptr %a)
  ret void
}
