; CLASS: b
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of v are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; A call is not an event, its effects are: inlining a convergent helper
; (LLVM's Inline/convergence-inline.ll, here with the entry token of the
; caller replacing the callee's) changes no thread's events and no
; convergence.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @f(i32) #0
declare token @llvm.experimental.convergence.entry() #0

define void @helper(i32 %v) #0 {
entry:
  %t = call token @llvm.experimental.convergence.entry()
  call void @f(i32 %v) [ "convergencectrl"(token %t) ]
  ret void
}

define void @src(i1 %c) #0 {
entry:
  %t = call token @llvm.experimental.convergence.entry()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %c, label %then, label %end
then:
  call void @helper(i32 %tid) [ "convergencectrl"(token %t) ]
  br label %end
end:
  call void @helper(i32 7) [ "convergencectrl"(token %t) ]
  ret void
}

define void @tgt(i1 %c) #0 {
entry:
  %t = call token @llvm.experimental.convergence.entry()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %c, label %then, label %end
then:
  call void @f(i32 %tid) [ "convergencectrl"(token %t) ]
  br label %end
end:
  call void @f(i32 7) [ "convergencectrl"(token %t) ]
  ret void
}

attributes #0 = { convergent nounwind }
