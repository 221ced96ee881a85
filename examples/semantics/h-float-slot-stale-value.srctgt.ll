; CLASS: h
; EXPECT: violated
; ARGS: --threads 2
; The known-wrong twin of h-float-slot-promoted: the phi takes the value
; the slot held before the `fneg` was stored to it (the reference loads
; the slot after the store), so a negative input comes out negative.
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
  %z = phi float [ %a, %flip ], [ %a, %entry ]
  %w = fmul float %z, 2.000000e+00
  store float %w, ptr addrspace(1) %po
  ret void
}

attributes #0 = { convergent nounwind }
