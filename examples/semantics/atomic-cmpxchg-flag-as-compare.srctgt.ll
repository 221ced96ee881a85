; CLASS: atomic
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of __ballot_sync, cmpxchg @lock, want are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; A strong `cmpxchg`'s success flag (field 1 of its `{ i32, i1 }` result)
; is `loaded == expected` (LangRef): a target that computes it with an
; `icmp` of field 0 instead, as InstCombine may, is the same program. The
; flag decides a ballot's argument and a store.
target triple = "nvptx64-nvidia-cuda"
@lock = addrspace(1) global i32 0
@out = addrspace(1) global [1024 x i32] zeroinitializer

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(i32 %want) {
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

define void @tgt(i32 %want) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pair = cmpxchg ptr addrspace(1) @lock, i32 %want, i32 %tid monotonic monotonic, align 4
  %old = extractvalue { i32, i1 } %pair, 0
  %ok = icmp eq i32 %old, %want
  %won = zext i1 %ok to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %won)
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = select i1 %ok, i32 %who, i32 %old
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
