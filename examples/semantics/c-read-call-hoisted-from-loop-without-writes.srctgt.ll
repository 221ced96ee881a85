; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: class m.)
; LICM hoists a memory(read) call out of a loop that writes nothing: the
; same memory version in every iteration, so one value (was violated: a
; fresh value per call, a false alarm).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
declare i32 @rd(i32) memory(read) nounwind willreturn

define amdgpu_kernel void @src(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %r = call i32 @rd(i32 %n)
  %acc1 = add i32 %acc, %r
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 3
  br i1 %c, label %loop, label %exit
exit:
  store i32 %acc1, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i32 %n) {
entry:
  %r = call i32 @rd(i32 %n)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %acc1 = add i32 %acc, %r
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 3
  br i1 %c, label %loop, label %exit
exit:
  store i32 %acc1, ptr addrspace(1) @out
  ret void
}
