; CLASS: e
; EXPECT: proved
; EXPECT-explicit: inconclusive
; A load of g[k] (a known object of 4 elements: undefined behaviour for k
; outside 0..3) hoisted above the call that precedes it in the loop body:
; where k is out of bounds the target's load is undefined behaviour at
; once and the reference's one event later, so the target is as defined
; as the reference. The simulation proves it by running the reference's
; next segment where the target's path ends in `unreachable`
; (`obligations::next_defined`; before, a target path into `unreachable`
; against a reference that goes on was no proof, and the bounded engines
; answered preserved). The explicit engine alone: inconclusive (class m:
; the address arithmetic of `k` is not inverted by its domain analysis).
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
  %a = getelementptr inbounds [4 x i32], ptr addrspace(1) @g, i32 0, i32 %k
  %v = load i32, ptr addrspace(1) %a, align 4
  call void @f(i32 %i)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
