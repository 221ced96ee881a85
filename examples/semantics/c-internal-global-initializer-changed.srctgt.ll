; CLASS: c
; EXPECT: violated
; As c-internal-global-never-written-folded, with another initializer in
; the target's module: nothing outside the module can write an internal
; global, so the kernel reads 5 in the reference and 6 in the target.
; Red-team review of 2026-11-29 (review3 H4): main proved it.
target triple = "nvptx64-nvidia-cuda"
@t = internal addrspace(1) global [2 x i32] [i32 5, i32 7], align 4 ; only: src
@t = internal addrspace(1) global [2 x i32] [i32 6, i32 7], align 4 ; only: tgt
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 1
  %q = getelementptr [2 x i32], ptr addrspace(1) @t, i32 0, i32 %i
  %v = load i32, ptr addrspace(1) %q, align 4
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 1
  %q = getelementptr [2 x i32], ptr addrspace(1) @t, i32 0, i32 %i
  %v = load i32, ptr addrspace(1) %q, align 4
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
