; CLASS: atomic
; EXPECT: inconclusive
; EXPECT-MESSAGE: scope narrowed
; Message passing whose `release` store and `acquire` load are narrowed
; to syncscope("singlethread") in the target (review2 G4): a
; singlethread-scoped release synchronises only with the same thread
; (LangRef, "syncscope"), so the reader loses the happens-before it had,
; as with orderings weakened to `monotonic`
; (atomic-orderings-weakened-to-monotonic). The model cannot see either:
; inconclusive, before any engine runs (checker/src/llvm/orderings.rs).
; ARGS: --threads 2
target triple = "nvptx64-nvidia-cuda"
@flag = addrspace(1) global i32 0
@data = addrspace(1) global i32 0
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %z = icmp eq i32 %tid, 0
  br i1 %z, label %w, label %r
w:
  store i32 42, ptr addrspace(1) @data, align 4
  store atomic i32 1, ptr addrspace(1) @flag release, align 4
  br label %e
r:
  %f = load atomic i32, ptr addrspace(1) @flag acquire, align 4
  %c = icmp eq i32 %f, 1
  br i1 %c, label %rd, label %e
rd:
  %d = load i32, ptr addrspace(1) @data, align 4
  store i32 %d, ptr addrspace(1) %out, align 4
  br label %e
e:
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %z = icmp eq i32 %tid, 0
  br i1 %z, label %w, label %r
w:
  store i32 42, ptr addrspace(1) @data, align 4
  store atomic i32 1, ptr addrspace(1) @flag syncscope("singlethread") release, align 4
  br label %e
r:
  %f = load atomic i32, ptr addrspace(1) @flag syncscope("singlethread") acquire, align 4
  %c = icmp eq i32 %f, 1
  br i1 %c, label %rd, label %e
rd:
  %d = load i32, ptr addrspace(1) @data, align 4
  store i32 %d, ptr addrspace(1) %out, align 4
  br label %e
e:
  ret void
}
