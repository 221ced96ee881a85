; Minimized by `convcheck fuzz --uniformity --seed 3` from a random
; function (class phi-join, the shape of llvm/llvm-project#137277): a
; divergent branch in %bb0 whose arms (%bb1 %bb2, and %bb3 %bb5 %bb6)
; meet at %bb4. opt-19 calls %v1 uniform; opt-22 calls it divergent.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @reproducer(i32 %a0, i32 %a1) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %bb0
bb0:
  %c0 = icmp ult i32 %tid, 3
  br i1 %c0, label %bb1, label %bb3
bb1:
  br label %bb2
bb3:
  br label %bb5
bb6:
  br label %bb4
bb2:
  br label %bb4
bb5:
  br label %bb6
bb4:
  %v1 = phi i32 [ 0, %bb2 ], [ 2, %bb6 ]
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
