; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; As c-constant-table-through-a-helper-inlined, with the table's last
; entry 5 in the target's module: the helper reads 4 or 5 at %x = 3.
; Red-team review of 2026-11-29 (review3 H8): main proved it by
; structure. Explicit: inconclusive, it tries too few values of %x.
target triple = "nvptx64-nvidia-cuda"
@t = internal addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4 ; only: src
@t = internal addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 5], align 4 ; only: tgt
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
  %r = call i32 @h(ptr addrspace(1) @t, i32 %x)
  %o = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %r, ptr addrspace(1) %o
  ret void
}
