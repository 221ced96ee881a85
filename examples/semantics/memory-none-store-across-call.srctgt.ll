; CLASS: memory-none
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of vote are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; A store moved across a `convergent memory(none)` call, as LoopVectorize's
; interleaved body does (docs/src/findings.md, "Probes"): LangRef says such
; a call reads and writes no memory, so its order against the store is not
; observable; its arguments, its convergence and its order against the
; other convergent operations are (docs/src/semantics.md, "Operations that access no memory").
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @vote(i32) #0
attributes #0 = { convergent nounwind willreturn memory(none) }

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @vote(i32 %tid)
  store i32 %a, ptr addrspace(1) %out
  %t1 = add i32 %tid, 1
  %b = call i32 @vote(i32 %t1)
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %b, ptr addrspace(1) %p1
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @vote(i32 %tid)
  %t1 = add i32 %tid, 1
  %b = call i32 @vote(i32 %t1)
  store i32 %a, ptr addrspace(1) %out
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %b, ptr addrspace(1) %p1
  ret void
}
