; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of @in are
;  inexact, class m; the other engines prove or preserve it.)
; A float comparison decides which threads take part in a ballot; the target
; swaps the operands and the predicate (`x > 0.5` as `0.5 < x`) and folds
; `fadd x, -0.0` to `x` and `x * 2.0` to `x + x`, as InstCombine would: the same threads vote, with the
; same argument, so nothing changes.
@in = addrspace(1) global [64 x float] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0

define i32 @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 63
  %p = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %x = load float, ptr addrspace(1) %p
  %y = fadd float %x, -0.000000e+00
  %c = fcmp ogt float %y, 5.000000e-01
  br i1 %c, label %then, label %end
then:
  %s = fmul float %x, 2.000000e+00
  %t = fcmp oge float %s, 1.500000e+00
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %t)
  br label %end
end:
  %r = phi i32 [ %b, %then ], [ 0, %entry ]
  ret i32 %r
}

define i32 @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 63
  %p = getelementptr [64 x float], ptr addrspace(1) @in, i32 0, i32 %i
  %x = load float, ptr addrspace(1) %p
  %c = fcmp olt float 5.000000e-01, %x
  br i1 %c, label %then, label %end
then:
  %s = fadd float %x, %x
  %t = fcmp ole float 1.500000e+00, %s
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %t)
  br label %end
end:
  %r = phi i32 [ %b, %then ], [ 0, %entry ]
  ret i32 %r
}

attributes #0 = { convergent nounwind }
