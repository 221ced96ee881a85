; PIPELINE: unify-loop-exits
; OPT: opt-22 (and opt-19); the pass runs before structurizecfg in AMDGPU's pipeline
; EXPECT-opt-19: violated
; EXPECT: violated
;
; UnifyLoopExits routes the loop's two exits through one guard block and
; rewrites every value defined in the loop and used after an exit into a phi
; in that block, including the loop's convergence heart `%h`, which exit1 uses:
;
;   %h.moved = phi token [ %h, %loop ], [ %h, %latch ]
;   call void @sync() [ "convergencectrl"(token %h.moved) ]
;
; A phi of token type is invalid IR (the verifier: "PHI nodes cannot have
; token type!", "Convergence control tokens can only be produced by calls to
; the convergence control intrinsics."); opt aborts when the verifier runs
; after the pass. The input passes `opt -passes=verify` (a heart token may be
; used outside its loop). In `lower-switch,fix-irreducible,unify-loop-exits,
; structurizecfg` the final module is valid again (structurizecfg removes the
; phi) and convcheck finds that final module preserves the input, so this is
; invalid IR between passes, not a miscompile of the pipeline's output.
;
;   convergence: static rule of convergence control tokens broken: Convergence
;   control tokens can only be produced by calls to the convergence control
;   intrinsics. (after UnifyLoopExitsPass on ule)

declare void @sync() convergent nounwind
declare i1 @get() nounwind
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()

define void @ule() convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br label %loop

loop:
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  %b = call i1 @get()
  br i1 %b, label %exit1, label %latch

latch:
  %c = call i1 @get()
  br i1 %c, label %loop, label %exit2

exit1:
  call void @sync() [ "convergencectrl"(token %h) ]
  br label %end

exit2:
  br label %end

end:
  ret void
}
