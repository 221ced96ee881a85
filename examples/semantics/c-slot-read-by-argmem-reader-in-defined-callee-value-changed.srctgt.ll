; CLASS: c
; EXPECT: inconclusive
; EXPECT-MESSAGE: a call to @h, which is not mapped
; Review2 G1 (was preserved): the internal @h passes its generic pointer
; parameter, the caller's slot, to @rd (`memory(argmem: read)`), which
; reads 1 in the reference and 2 in the target. A generic pointer of
; unknown origin in a function the module calls may point to a caller's
; private memory, whose bytes @h does not know: @h is skipped, so the
; check is inconclusive, not preserved (call_reads.rs, read_plan).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0
declare i32 @rd(ptr) memory(argmem: read) nounwind willreturn

define internal i32 @h(ptr %p) noinline {
entry:
  %r = call i32 @rd(ptr %p)
  ret i32 %r
}

define void @src() {
entry:
  %a = alloca i32, align 4
  store i32 1, ptr %a
  %r = call i32 @h(ptr %a)
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define void @tgt() {
entry:
  %a = alloca i32, align 4
  store i32 2, ptr %a
  %r = call i32 @h(ptr %a)
  store i32 %r, ptr addrspace(1) @out
  ret void
}
