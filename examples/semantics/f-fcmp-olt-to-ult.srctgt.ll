; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: vote
; `fcmp olt` to `fcmp ult` decides who votes: the two differ exactly when an
; operand is NaN, so a thread that loads a NaN votes in the target only
; (issue 21, floats: the counterexample shows the NaN input).
@in = addrspace(1) global [64 x float] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote() #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 63
  %p = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %x = load float, ptr addrspace(1) %p
  %c = fcmp olt float %x, 1.000000e+00
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 63
  %p = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %x = load float, ptr addrspace(1) %p
  %c = fcmp ult float %x, 1.000000e+00
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

attributes #0 = { convergent nounwind }
