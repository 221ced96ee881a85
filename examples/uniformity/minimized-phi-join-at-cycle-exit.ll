; phi-join-at-cycle-exit, minimized by `convcheck fuzz --uniformity --seed 2026 --from 27600 --count 100000 --shard 0/2` from @f71401 (18 -> 11 instructions); opt-19 and opt-22 both call %v2 uniform (llvm/llvm-project #216100, PR #216296)
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @reproducer(i32 %a0, i32 %a1) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %bb0
bb0:
  br label %bb1
bb1:
  %v1 = phi i32 [ 0, %bb0 ], [ 1, %bb2 ]
  switch i32 %v1, label %bb2 [ i32 1, label %bb3 ]
bb3:
  %v2 = phi i32 [ 2, %bb1 ], [ 1, %bb2 ]
  ret void
bb2:
  %c2 = icmp eq i32 %tid, 1
  br i1 %c2, label %bb3, label %bb1
}

declare i32 @llvm.amdgcn.workitem.id.x()
