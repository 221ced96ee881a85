; The shape of llvm/llvm-project#216100 and PR #216296 (2026-08), written
; for convcheck: a loop that threads leave through two exits, one of them
; taken on the thread index, into one block whose phi takes a different
; constant from each exit. Two threads can leave in the same converged
; instance of %done by different exits, so %acc is divergent; opt-19 and
; opt-22 call it uniform (PR #216296 fixes the analysis after LLVM 22).
;
;   convcheck uniformity examples/uniformity/cycle-exit-constants.ll

define amdgpu_kernel void @cycle_exit_constants(i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %tail ]
  %enough = icmp uge i32 %i, %n
  br i1 %enough, label %done, label %tail

tail:
  %i.next = add i32 %i, 1
  %mine = icmp eq i32 %tid, 1
  br i1 %mine, label %done, label %head

done:
  %acc = phi i32 [ 0, %head ], [ 1, %tail ]
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
