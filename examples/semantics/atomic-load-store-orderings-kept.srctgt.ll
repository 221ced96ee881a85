; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: addresses through arithmetic it does not
; invert and stored values make its domains inexact, and it says so; the
; product decides.)
; `load atomic` and `store atomic` of every ordering are memory accesses of
; the atomic kind (two atomics never race; a barrier orders them). The
; target computes the address of the last store first and reassociates the
; sums: the same accesses in the same order, the same values.
target triple = "nvptx64-nvidia-cuda"
@flag = addrspace(1) global i32 0
@data = addrspace(3) global [64 x i32] undef

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @data, i32 0, i32 %tid
  store atomic i32 %tid, ptr addrspace(3) %p unordered, align 4
  store atomic i32 1, ptr addrspace(1) @flag syncscope("block") release, align 4
  call void @llvm.nvvm.barrier0()
  %f = load atomic i32, ptr addrspace(1) @flag acquire, align 4
  %d = load atomic i32, ptr addrspace(3) %p monotonic, align 4
  %a = load i32, ptr addrspace(3) %p, align 4
  %b = load i32, ptr addrspace(3) %p, align 4
  %s = add i32 %a, %b
  %t = add i32 %s, %d
  %w = call i32 @__ballot_sync(i32 -1, i32 %f)
  %v = add i32 %t, %w
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store atomic i32 %v, ptr addrspace(1) %q seq_cst, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @data, i32 0, i32 %tid
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store atomic i32 %tid, ptr addrspace(3) %p unordered, align 4
  store atomic i32 1, ptr addrspace(1) @flag syncscope("block") release, align 4
  call void @llvm.nvvm.barrier0()
  %f = load atomic i32, ptr addrspace(1) @flag acquire, align 4
  %d = load atomic i32, ptr addrspace(3) %p monotonic, align 4
  %a = load i32, ptr addrspace(3) %p, align 4
  %b = load i32, ptr addrspace(3) %p, align 4
  %s = add i32 %b, %a
  %t = add i32 %d, %s
  %w = call i32 @__ballot_sync(i32 -1, i32 %f)
  %v = add i32 %w, %t
  store atomic i32 %v, ptr addrspace(1) %q seq_cst, align 4
  ret void
}
