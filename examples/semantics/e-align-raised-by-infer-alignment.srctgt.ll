; CLASS: e
; EXPECT: proved
; EXPECT-explicit: inconclusive
; opt-19 infer-alignment's output (InstCombine's alignment inference before
; LLVM 17): the loads and stores of @g raised from align 1 to 4 and 8,
; with @g's own alignment raised to 8 (in both functions' module here, as
; infer-alignment leaves it): every access aligned, the target no less
; defined. The module-level pipeline is checked too, through real opt, by
; `infer_alignment_through_real_opt` in checker/tests/semantics.rs.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = internal addrspace(1) global [8 x i32] zeroinitializer, align 8
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 3
  %e = getelementptr inbounds [8 x i32], ptr addrspace(1) @g, i32 0, i32 %t
  %v = load i32, ptr addrspace(1) %e, align 1
  store i32 %v, ptr addrspace(1) %e, align 1
  %w = load i64, ptr addrspace(1) @g, align 1
  %x = trunc i64 %w to i32
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %x, ptr addrspace(1) %q, align 1
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 3
  %e = getelementptr inbounds [8 x i32], ptr addrspace(1) @g, i32 0, i32 %t
  %v = load i32, ptr addrspace(1) %e, align 4
  store i32 %v, ptr addrspace(1) %e, align 4
  %w = load i64, ptr addrspace(1) @g, align 8
  %x = trunc i64 %w to i32
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %x, ptr addrspace(1) %q, align 4
  ret void
}
