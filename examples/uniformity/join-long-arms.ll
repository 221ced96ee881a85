; The shape of llvm/llvm-project#137277 (reported 2025-04-25 against
; LLVM's UniformityAnalysis), written for convcheck: a divergent branch
; whose two arms are chains of three blocks each, joined by phis. Threads
; that took different arms reach %join in one converged instance with
; different values, so the phis are divergent; opt-19 calls them uniform.
;
;   convcheck uniformity examples/uniformity/join-long-arms.ll
;
; reports %div_a, %div_b and %div_c (exit 1) with opt-19; with
; --opt-bin opt-22 there is no finding (the join search was fixed).

define amdgpu_kernel void @join_long_arms(i32 %a, i32 %b, i32 %c) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %low = icmp ult i32 %tid, 16
  br i1 %low, label %left1, label %right1

left1:
  %a.l = add i32 %a, 1
  br label %left2

left2:
  %b.l = add i32 %b, 2
  br label %left3

left3:
  %c.l = add i32 %c, 3
  br label %join

right1:
  %a.r = sub i32 %a, 1
  br label %right2

right2:
  %b.r = sub i32 %b, 2
  br label %right3

right3:
  %c.r = sub i32 %c, 3
  br label %join

join:
  %div_a = phi i32 [ %a.l, %left3 ], [ %a.r, %right3 ]
  %div_b = phi i32 [ %b.l, %left3 ], [ %b.r, %right3 ]
  %div_c = phi i32 [ %c.l, %left3 ], [ %c.r, %right3 ]
  %sum = add i32 %div_a, %div_b
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
