; CLASS: e
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; FIXME: should be violated (LangRef). Today's verdicts, recorded:
; The known-wrong mutant of e-oob-global-load-hoisted-above-call-in-loop:
; the target hoists a load of g[k + 1] where the reference loads g[k].
; For k = 3 the reference is defined and the target's load is out of
; bounds. The simulation finds no relation (the reference's next segment,
; `obligations::next_defined`, does not cover it: never proved). The
; product finds the target's undefined behaviour (its query `tgt_ub`),
; but its confirmation looks for the smallest group among models of a
; difference of events, finds one that differs only in the dead loads,
; and drops the model of undefined behaviour ("not modelled"); the
; explicit engine's domain of `k` lacks 3 (address arithmetic, class m),
; so the default engine answers preserved. Confirming such a model among
; models of undefined behaviour made this violated, but turned
; atomic-float-value-after-fmax-kept from inconclusive to preserved (a
; model of undefined behaviour that did not replay as one), so it is not
; in (2026-11-29, helper bounds2).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [4 x i32] zeroinitializer, align 4
declare void @f(i32) memory(inaccessiblemem: readwrite)

define void @src(i32 %k, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @f(i32 %i)
  %a = getelementptr inbounds [4 x i32], ptr addrspace(1) @g, i32 0, i32 %k
  %v = load i32, ptr addrspace(1) %a, align 4
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define void @tgt(i32 %k, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %k1 = add i32 %k, 1
  %a = getelementptr inbounds [4 x i32], ptr addrspace(1) @g, i32 0, i32 %k1
  %v = load i32, ptr addrspace(1) %a, align 4
  call void @f(i32 %i)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
