; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; An internal constant table passed to a helper that reads it through its
; parameter: the helper's load, of unknown origin, reads the table's
; initializer where its address lies inside the table (`memory.rs`,
; `escaped_table_read`), so opt-19's `inline,instcombine` output, whose
; load is rooted at @t, reads the same values. Red-team review of
; 2026-11-29 (review3 H8): main read a free value in the helper, a false
; alarm at the inliner's stage (and at IPSCCP's for HIP -O0 code).
; Explicit: inconclusive, it tries too few values of %x (inexact domains).
target triple = "nvptx64-nvidia-cuda"
@t = internal addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal i32 @h(ptr addrspace(1) %p, i32 %i) {
  %j = and i32 %i, 3
  %q = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %j
  %v = load i32, ptr addrspace(1) %q, align 4
  ret i32 %v
}

define void @src(i32 %x) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 @h(ptr addrspace(1) @t, i32 %x)
  %o = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %r, ptr addrspace(1) %o
  ret void
}

define void @tgt(i32 %x) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %j.i = and i32 %x, 3
  %1 = zext nneg i32 %j.i to i64
  %q.i = getelementptr inbounds i32, ptr addrspace(1) @t, i64 %1
  %v.i = load i32, ptr addrspace(1) %q.i, align 4
  %o = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v.i, ptr addrspace(1) %o
  ret void
}
