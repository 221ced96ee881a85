; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: addresses through arithmetic it does not
; invert and stored values make its domains inexact, and it says so; the
; product decides.)
; The correct version of atomic-value-forwarded-across-atomicrmw: the loads
; after the atomic are kept (the sums reassociated), and the load before it
; is used as it was.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) %counts, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = getelementptr i32, ptr addrspace(1) %counts, i32 %tid
  %before = load i32, ptr addrspace(1) %c, align 4
  %old = atomicrmw add ptr addrspace(1) %c, i32 1 monotonic, align 4
  %after = load i32, ptr addrspace(1) %c, align 4
  %again = load i32, ptr addrspace(1) %c, align 4
  %s = add i32 %before, %after
  %t = add i32 %s, %again
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %t, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %counts, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = getelementptr i32, ptr addrspace(1) %counts, i32 %tid
  %before = load i32, ptr addrspace(1) %c, align 4
  %old = atomicrmw add ptr addrspace(1) %c, i32 1 monotonic, align 4
  %after = load i32, ptr addrspace(1) %c, align 4
  %again = load i32, ptr addrspace(1) %c, align 4
  %u = add i32 %again, %after
  %t = add i32 %before, %u
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %t, ptr addrspace(1) %q, align 4
  ret void
}
