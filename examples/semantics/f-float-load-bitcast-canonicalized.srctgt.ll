; CLASS: f
; EXPECT: violated
; EXPECT-explicit: inconclusive
; ARGS: --threads 2
; Mutant of f-float-load-bitcast-to-int-load: the target canonicalizes the
; loaded float before it moves its bits (as a model with one NaN would):
; different bits exactly where the input is a NaN other than the canonical
; one. Under --engine explicit alone: inconclusive (the float values it
; tries have the canonical NaN only; the symbolic product finds the NaN).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.canonicalize.f32(float)
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
  %a = load float, ptr addrspace(1) %pa
  %c = call float @llvm.canonicalize.f32(float %a)
  %b = bitcast float %c to i32
  store i32 %b, ptr addrspace(1) %po
  ret void
}

attributes #0 = { convergent nounwind }
