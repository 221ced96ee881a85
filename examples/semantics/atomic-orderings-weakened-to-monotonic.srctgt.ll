; CLASS: atomic
; EXPECT: inconclusive
; EXPECT-MESSAGE: an atomic ordering weakened
; Message passing, the writer's `release` and the reader's `acquire`
; weakened to `monotonic`. In LLVM's memory model this is a violation:
; with monotonic the reader may see flag == 1 and still read the old
; @data (and its plain load now races with the writer's store). The model
; cannot see it: an atomic load's result is a free value in both programs
; and the model's only synchronisation between threads is the barrier
; (its phases), not the happens-before edges orderings make; every event,
; value and hazard stays equal, so the engines alone said *proved* (a
; FIXME until 2026-11-28). A step whose function lacks an ordering
; guarantee its reference states for a kind of access is inconclusive now,
; before any engine runs (checker/src/llvm/orderings.rs; docs/src/llvm.md,
; "Atomics"). Catching the violation needs happens-before within a phase.
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
  store atomic i32 1, ptr addrspace(1) @flag monotonic, align 4
  br label %e
r:
  %f = load atomic i32, ptr addrspace(1) @flag monotonic, align 4
  %c = icmp eq i32 %f, 1
  br i1 %c, label %rd, label %e
rd:
  %d = load i32, ptr addrspace(1) @data, align 4
  store i32 %d, ptr addrspace(1) %out, align 4
  br label %e
e:
  ret void
}
