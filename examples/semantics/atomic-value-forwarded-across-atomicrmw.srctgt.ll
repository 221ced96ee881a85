; CLASS: atomic
; EXPECT: violated
; A plain load after `atomicrmw add` folded to the value loaded before it
; (a stale value: the atomic changed the location). Each thread adds to its
; own counter, so the load after the atomic reads what the atomic left.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) %counts, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = getelementptr i32, ptr addrspace(1) %counts, i32 %tid
  %before = load i32, ptr addrspace(1) %c, align 4
  %old = atomicrmw add ptr addrspace(1) %c, i32 1 monotonic, align 4
  %after = load i32, ptr addrspace(1) %c, align 4
  %s = add i32 %before, %after
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %counts, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = getelementptr i32, ptr addrspace(1) %counts, i32 %tid
  %before = load i32, ptr addrspace(1) %c, align 4
  %old = atomicrmw add ptr addrspace(1) %c, i32 1 monotonic, align 4
  %s = shl i32 %before, 1
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %q, align 4
  ret void
}
