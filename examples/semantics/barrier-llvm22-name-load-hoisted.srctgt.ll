; CLASS: barrier
; EXPECT: violated
; `llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)` (opt-22's name for
; `llvm.nvvm.barrier0`) is a block barrier: the target loads the
; neighbour's value before it, which races with the neighbour's store.
target triple = "nvptx64-nvidia-cuda"
@buf = addrspace(3) global [64 x i32] undef

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %n = xor i32 %tid, 1
  %q = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %n
  %v = load i32, ptr addrspace(3) %q, align 4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p, align 4
  %n = xor i32 %tid, 1
  %q = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %n
  %v = load i32, ptr addrspace(3) %q, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}
