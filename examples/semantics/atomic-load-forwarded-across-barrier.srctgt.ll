; CLASS: atomic
; EXPECT: violated
; EXPECT-MESSAGE: __ballot_sync
; A `store atomic` then a `load atomic` of the same location across a
; barrier: the target forwards the thread's own stored value past the
; barrier, but after it the location holds what any thread stored last
; (the barrier orders atomics as it orders plain accesses).
target triple = "nvptx64-nvidia-cuda"
@slot = addrspace(3) global i32 undef

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store atomic i32 %tid, ptr addrspace(3) @slot monotonic, align 4
  call void @llvm.nvvm.barrier0()
  %v = load atomic i32, ptr addrspace(3) @slot monotonic, align 4
  %w = call i32 @__ballot_sync(i32 -1, i32 %v)
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %w, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store atomic i32 %tid, ptr addrspace(3) @slot monotonic, align 4
  call void @llvm.nvvm.barrier0()
  %v = load atomic i32, ptr addrspace(3) @slot monotonic, align 4
  %w = call i32 @__ballot_sync(i32 -1, i32 %tid)
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %w, ptr addrspace(1) %q, align 4
  ret void
}
