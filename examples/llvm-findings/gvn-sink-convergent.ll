; PIPELINE: gvn-sink
; OPT: opt-22 (and opt-19); in default<O2> with -enable-gvn-sink (off by default), any triple
; EXPECT-opt-19: violated
; EXPECT: violated
;
; GVNSink merges two calls of a convergent function from the two sides of a
; branch into one call in the join block, with a phi for the argument:
;
;   r = c ? vote(a) : vote(b);   ==>   r = vote(c ? a : b);
;
; With `c` per-thread, the threads with c = 1 voted among themselves and
; those with c = 0 among themselves; after the merge all of them vote
; together. SimplifyCFG refuses exactly this sinking for convergent calls
; (D144756), GVNHoist refuses the hoisting (D23173); GVNSink has no such check.
;
;   convergence at `vote`: (occurrence 1 in tid 0, 1 in tid 1) is not converged
;   in the reference but converged in the target
;   scenario (N=2): tid 0: a=0 b=0 c=0   tid 1: a=0 b=0 c=1
;   reference (CFG level)        target (after GVNSinkPass)
;   |       | 1     | 2     |    |       | 1     |
;   | tid 0 |       | vote2 |    | tid 0 | vote2 |
;   | tid 1 | vote1 |       |    | tid 1 | vote1 |

declare i32 @vote(i32) convergent nounwind willreturn memory(none)

define i32 @sink(i32 %a, i32 %b, i1 %c) {
entry:
  br i1 %c, label %t, label %f

t:
  %va = call i32 @vote(i32 %a)
  br label %m

f:
  %vb = call i32 @vote(i32 %b)
  br label %m

m:
  %r = phi i32 [ %va, %t ], [ %vb, %f ]
  ret i32 %r
}
