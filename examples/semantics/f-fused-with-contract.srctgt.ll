; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of @in are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; ARGS: --threads 2
; `a * b + c` with `contract` on both fused into `llvm.fma` (what the
; NVPTX back end and InstCombine do under -ffp-contract=fast): LangRef allows
; it, the model evaluates a contractable pair fused.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote() #0
@in = addrspace(1) global [64 x float] zeroinitializer
@out = addrspace(1) global [64 x float] zeroinitializer

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 15
  %pa = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %a = load float, ptr addrspace(1) %pa
  %j = add i32 %i, 16
  %pb = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %j
  %b = load float, ptr addrspace(1) %pb
  %k = add i32 %i, 32
  %pc = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %k
  %c = load float, ptr addrspace(1) %pc
  %m = fmul contract float %a, %b
  %r = fadd contract float %m, %c
  %po = getelementptr [64 x float], ptr addrspace(1) @out, i32 0, i32 %i
  store float %r, ptr addrspace(1) %po
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 15
  %pa = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %a = load float, ptr addrspace(1) %pa
  %j = add i32 %i, 16
  %pb = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %j
  %b = load float, ptr addrspace(1) %pb
  %k = add i32 %i, 32
  %pc = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %k
  %c = load float, ptr addrspace(1) %pc
  %r = call float @llvm.fma.f32(float %a, float %b, float %c)
  %po = getelementptr [64 x float], ptr addrspace(1) @out, i32 0, i32 %i
  store float %r, ptr addrspace(1) %po
  ret void
}
declare float @llvm.fma.f32(float, float, float)

attributes #0 = { convergent nounwind }
