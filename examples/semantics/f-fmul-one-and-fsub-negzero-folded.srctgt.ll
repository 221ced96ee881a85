; CLASS: f
; EXPECT: proved
; EXPECT-explicit: inconclusive
; ARGS: --threads 2
; InstCombine: `fmul x, 1.0` to `x` and `fsub -0.0, x` to `fneg x`,
; for every x, NaN payloads included (LangRef lets an operation with a NaN
; operand return that NaN unchanged, its sign nondeterministic).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
@in = addrspace(1) global [64 x float] zeroinitializer
@out = addrspace(1) global [64 x i32] zeroinitializer

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 15
  %pa = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %po = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %i
  %a = load float, ptr addrspace(1) %pa
  %m = fmul float %a, 1.000000e+00
  %n = fsub float -0.000000e+00, %m
  %b = bitcast float %n to i32
  store i32 %b, ptr addrspace(1) %po
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 15
  %pa = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %po = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %i
  %a = load float, ptr addrspace(1) %pa
  %n = fneg float %a
  %b = bitcast float %n to i32
  store i32 %b, ptr addrspace(1) %po
  ret void
}

attributes #0 = { convergent nounwind }
