; CLASS: f
; EXPECT: proved
; EXPECT-explicit: inconclusive
; ARGS: --threads 2
; InstCombine's `load float` + `bitcast` to `i32` folded into `load i32`
; (clang's atomicCAS of a float's bits, examples/gpu/atomics.cu
; float_claim): LangRef: a load keeps a float's bits, NaN payloads and
; signalling NaNs included, so the two store the same bits.
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
  %b = bitcast float %a to i32
  store i32 %b, ptr addrspace(1) %po
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 15
  %pa = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %po = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %i
  %b = load i32, ptr addrspace(1) %pa
  store i32 %b, ptr addrspace(1) %po
  ret void
}

attributes #0 = { convergent nounwind }
