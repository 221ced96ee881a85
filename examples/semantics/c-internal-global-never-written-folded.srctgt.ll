; CLASS: c
; EXPECT: preserved
; An internal global that no instruction of the module may write reads
; its initializer, as a `constant` does (`to_ir/never_written.rs`): opt's
; GlobalOpt folds the load to 5 and deletes @t (opt-19
; `-passes=globalopt`; CUDA's `static __device__ int t = 5;` read only).
; Red-team review of 2026-11-29 (review3 H4): main read a free value
; there, a false alarm under every engine.
target triple = "nvptx64-nvidia-cuda"
@t = internal addrspace(1) global i32 5, align 4 ; only: src
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = load i32, ptr addrspace(1) @t, align 4
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 5, ptr addrspace(1) %p, align 4
  ret void
}
