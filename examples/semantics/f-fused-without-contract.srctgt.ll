; CLASS: f
; EXPECT: violated
; ARGS: --threads 2
; `a * b + c` without flags fused into `llvm.fma`: one rounding instead of
; two changes the stored value, e.g. a = b = 0.1, c = 1 + 2^-12. The explicit
; engine finds it (float inputs range over values chosen for this); the
; product treats float arithmetic as uninterpreted functions, whose
; counterexample (some function where fma and mul+add differ) need not
; replay in IEEE arithmetic: then it says so and the explicit engine
; decides, also under `--engine smt`.
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
  %m = fmul float %a, %b
  %r = fadd float %m, %c
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
