; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of @in are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; ARGS: --threads 2
; `a + b` to `b + a`: IEEE addition commutes (NaNs are one canonical NaN
; in the model), so the stored value is the same (issue 21, floats).
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
  %r = fadd float %a, %b
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
  %r = fadd float %b, %a
  %po = getelementptr [64 x float], ptr addrspace(1) @out, i32 0, i32 %i
  store float %r, ptr addrspace(1) %po
  ret void
}


attributes #0 = { convergent nounwind }
