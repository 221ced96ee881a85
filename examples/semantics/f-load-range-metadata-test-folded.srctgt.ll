; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; opt-19 -passes=instcombine,simplifycfg on a load with `!range [0, 10)`
; folds `v == 20` to false: a value out of range is poison, the branch
; on it undefined behaviour, so the fold is correct.
; Explicit: inconclusive, the explicit engine cannot try every value of p (inexact domains).
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @f(i32)

define void @src(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a, align 4, !range !0
  %c = icmp eq i32 %v, 20
  br i1 %c, label %t, label %e
t:
  call void @f(i32 1)
  br label %e
e:
  ret void
}

define void @tgt(ptr addrspace(1) %p) {
entry:
  ret void
}
!0 = !{i32 0, i32 10}

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
