; Minimized by `convcheck fuzz --uniformity --seed 3 --count 100` from a
; random function (class phi-join-after-cycle-exit): threads diverge at the
; switch of the one-block cycle %bb1, leave it by different exits and meet
; again at %bb0, the header of the enclosing cycle, in one converged
; instance. opt-19 calls %v1 uniform; opt-22 calls it divergent.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @reproducer(i32 %a0, i32 %a1) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %bb0
bb0:
  %v1 = phi i32 [ 0, %entry ], [ 2, %bb3 ], [ 1, %bb6 ]
  br label %bb1
bb4:
  br label %bb5
bb3:
  br label %bb0
bb1:
  switch i32 %tid, label %bb2 [ i32 0, label %bb1 i32 1, label %bb4 ]
bb6:
  br label %bb0
bb5:
  br label %bb6
bb2:
  br label %bb3
}

declare i32 @llvm.amdgcn.workitem.id.x()
