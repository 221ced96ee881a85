; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; A weak `cmpxchg` made strong is a refinement (LangRef: a weak cmpxchg
; may fail spuriously; the strong one's behaviours are among its own):
; the reference's spurious failures are its own choice, and the check
; compares under "no spurious failure" (model/llvm/src/to_ir/spurious.rs).
; Was a false alarm until 2026-11-28. Its wrong variant is
; atomic-cmpxchg-weak-made-strong-ignores-failure.srctgt.ll. The explicit
; engine alone is inconclusive: the exchanged and balloted values are
; observed, and it tries only some of them.
target triple = "nvptx64-nvidia-cuda"
@lock = addrspace(1) global i32 0
@out = addrspace(1) global [1024 x i32] zeroinitializer

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(i32 %want) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pair = cmpxchg weak ptr addrspace(1) @lock, i32 %want, i32 %tid monotonic monotonic, align 4
  %old = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  %won = zext i1 %ok to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %won)
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = select i1 %ok, i32 %who, i32 %old
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

define void @tgt(i32 %want) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pair = cmpxchg ptr addrspace(1) @lock, i32 %want, i32 %tid monotonic monotonic, align 4
  %old = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  %won = zext i1 %ok to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %won)
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = select i1 %ok, i32 %who, i32 %old
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
