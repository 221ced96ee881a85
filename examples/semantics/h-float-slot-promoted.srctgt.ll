; CLASS: h
; EXPECT: proved
; EXPECT-explicit: inconclusive
; ARGS: --threads 2
; clang -O0 keeps a `float` local in an alloca (CUDA's `float v = in[i];
; if (v < 0) v = -v; out[i] = v * 2`); SROA turns it into a phi. A float
; slot whose address only loads and stores of its own type use is a
; local, as an integer slot is (docs/src/llvm.md, "Floating point"), so
; the two agree on every value, NaN payloads included. Until 2026-11-28
; (17:00) only integer and pointer slots were locals, the float slot was
; private memory and the simulation refused the pair (preserved within
; bounds only). The explicit engine alone names the inexact domain of
; the loaded float.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
@in = addrspace(1) global [64 x float] zeroinitializer
@out = addrspace(1) global [64 x float] zeroinitializer

define void @src() #0 {
entry:
  %v = alloca float, align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 15
  %pa = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %po = getelementptr [64 x float], ptr addrspace(1) @out, i32 0, i32 %i
  %a = load float, ptr addrspace(1) %pa
  store float %a, ptr %v, align 4
  %x = load float, ptr %v, align 4
  %neg = fcmp olt float %x, 0.000000e+00
  br i1 %neg, label %flip, label %done

flip:
  %y = load float, ptr %v, align 4
  %ny = fneg float %y
  store float %ny, ptr %v, align 4
  br label %done

done:
  %z = load float, ptr %v, align 4
  %w = fmul float %z, 2.000000e+00
  store float %w, ptr addrspace(1) %po
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 15
  %pa = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %po = getelementptr [64 x float], ptr addrspace(1) @out, i32 0, i32 %i
  %a = load float, ptr addrspace(1) %pa
  %neg = fcmp olt float %a, 0.000000e+00
  br i1 %neg, label %flip, label %done

flip:
  %ny = fneg float %a
  br label %done

done:
  %z = phi float [ %ny, %flip ], [ %a, %entry ]
  %w = fmul float %z, 2.000000e+00
  store float %w, ptr addrspace(1) %po
  ret void
}

attributes #0 = { convergent nounwind }
