; CLASS: e
; EXPECT: preserved
; An alloca kept in memory (its address goes to @use) starts `undef`
; (LangRef), as a promoted one does: the load before the store reads
; nothing stored, and the frozen value is the reference's to choose.
; opt-19 -passes='gvn,instcombine' folds the load to `undef` and the
; freeze to 0, stored to @out: 0 is one choice of the reference. Violated
; before (the slot's unwritten bytes were a free value shared by both
; sides).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0

declare void @use(ptr)

define void @src(i32 %x) {
entry:
  %a = alloca i32, align 4
  %v = load i32, ptr %a, align 4
  %w = freeze i32 %v
  store i32 %x, ptr %a, align 4
  call void @use(ptr %a)
  store i32 %w, ptr addrspace(1) @out, align 4
  ret void
}

define void @tgt(i32 %x) {
entry:
  %a = alloca i32, align 4
  store i32 %x, ptr %a, align 4
  call void @use(ptr nonnull %a)
  store i32 0, ptr addrspace(1) @out, align 4
  ret void
}
