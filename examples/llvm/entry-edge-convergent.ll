; A new entry edge into the block of a convergent operation (the
; transform of llvm/llvm-project #213868, which JumpThreading makes and
; PR #213870 proposed to refuse). Written for convcheck; checked with
; `opt-19 -passes=verify`.
;
; Under LLVM's own semantics (maximal convergence) an edge alone changes
; nothing outside cycles: every thread that executes a convergent
; operation outside any cycle is converged with every other, wherever it
; came from. An edge matters where it enters a cycle somewhere other than
; at its header.

declare void @sync() convergent
declare void @work()
declare i32 @get()

; Acyclic: the flag %p repeats the test of %x. opt-19's jump-threading
; sends the threads with x > 0 from `entry` straight to `s`, which gains
; an entry edge that skips the merge block `m`. sync() is executed by the
; same threads, together, before and after: convcheck finds nothing.
define void @guard(i32 %x) {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %a, label %b

a:
  call void @work()
  br label %m

b:
  br label %m

m:
  %p = phi i1 [ true, %a ], [ false, %b ]
  br i1 %p, label %s, label %exit

s:
  call void @sync()
  br label %exit

exit:
  ret void
}

; In a loop: the flag %p is known on the edges from `a` and `b`, and
; `header` is the loop's header. opt-19's jump-threading refuses to thread
; through a loop header and leaves the function alone;
; `simplifycfg<no-keep-loops>` threads both edges: `a` branches straight to
; `s`, the block of sync(), and `entry` to `latch`. The cycle {s, latch}
; has two entries; LLVM's depth-first search makes `s` its header, so a
; thread that entered at `latch` and calls sync() in its second iteration
; is converged with a thread that calls it in its first, which it was not
; before. `entry-edge-convergent-bad.ll` is the same threading written by
; hand as jump-threading would do it if it threaded into the loop.
define void @flag_loop(i32 %x) {
entry:
  %c = icmp sle i32 %x, 0
  br i1 %c, label %b, label %a

a:
  call void @work()
  br label %header

b:
  br label %header

header:
  %p = phi i1 [ true, %a ], [ false, %b ], [ %q, %latch ]
  br i1 %p, label %s, label %latch

s:
  call void @sync()
  br label %latch

latch:
  %v = call i32 @get()
  %q = icmp ne i32 %v, 0
  br i1 %q, label %header, label %exit

exit:
  ret void
}
