; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; An unused `monotonic` `load atomic` deleted: correct in LLVM's memory
; model (a monotonic load synchronises nothing, and its value is unused),
; and preserved here (the product compares every load and leaves a
; removed one to the explicit engine, whose domains alone are inexact; the
; default order decides it). opt-19 keeps such a load under default<O2>.
; ARGS: --threads 2
target triple = "nvptx64-nvidia-cuda"
@flag = addrspace(1) global i32 0
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %f = load atomic i32, ptr addrspace(1) @flag monotonic, align 4
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %tid, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %tid, ptr addrspace(1) %q, align 4
  ret void
}
