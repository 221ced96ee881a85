; CLASS: f
; EXPECT: inconclusive
; ARGS: --threads 2
; EXPECT-MESSAGE: reassoc
; `(a + b) + c` to `a + (b + c)` where the reference allows it (`reassoc`):
; the values a fast-math flag other than `contract` allows are not modelled,
; so the check is inconclusive and says why (never a false alarm).
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
  %s = fadd reassoc float %a, %b
  %r = fadd reassoc float %s, %c
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
  %s = fadd reassoc float %b, %c
  %r = fadd reassoc float %a, %s
  %po = getelementptr [64 x float], ptr addrspace(1) @out, i32 0, i32 %i
  store float %r, ptr addrspace(1) %po
  ret void
}


attributes #0 = { convergent nounwind }
