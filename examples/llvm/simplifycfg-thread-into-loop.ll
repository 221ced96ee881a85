; SimplifyCFG threading a branch into a loop past its header (the shape
; that llvm/llvm-project PR #204958 stops SimplifyCFG from threading).
; Written for convcheck; checked with `opt-19 -passes=verify`.
;
; In C terms, with c a per-thread flag and get() a per-thread value:
;
;   work(); if (!c) work();
;   do { if (!c) work(); sync(); } while (get());
;
; The loop's header branches on c, which the block before the loop has
; just tested. opt-19's `simplifycfg<no-keep-loops>` sends the threads
; with c set from `pre` straight to `latch`, past `header`: the cycle
; {header, body, latch} gains a second entry and becomes irreducible. LLVM
; keys the iterations of an irreducible cycle by the entry its depth-first
; search meets first, here `header` (`opt-19 -passes='print<cycles>'`
; prints `entries(header latch)`), which the threads that came in through
; `latch` have not passed: their first sync() is no longer converged with
; that of the other threads.

declare void @sync() convergent
declare void @work()
declare i32 @get()

define void @bypass_header(i1 %c) {
entry:
  br label %pre

pre:
  call void @work()
  br i1 %c, label %header, label %pre.else

pre.else:
  call void @work()
  br label %header

header:
  br i1 %c, label %latch, label %body

body:
  call void @work()
  br label %latch

latch:
  call void @sync()
  %v = call i32 @get()
  %more = icmp ne i32 %v, 0
  br i1 %more, label %header, label %exit

exit:
  ret void
}

; The same loop with the branches of `pre` and `header` the other way
; round. SimplifyCFG threads the same way, but now the depth-first search
; meets the new entry `latch` first and makes it the header of the
; irreducible cycle (`entries(latch header)`): every thread passes it once
; per iteration, as every thread passed `header` before, and sync() is
; converged exactly as in the input. Whether the threading changes
; convergence depends on LLVM's choice of header.
define void @bypass_header_mirrored(i1 %c) {
entry:
  br label %pre

pre:
  call void @work()
  br i1 %c, label %pre.then, label %header

pre.then:
  call void @work()
  br label %header

header:
  br i1 %c, label %body, label %latch

body:
  call void @work()
  br label %latch

latch:
  call void @sync()
  %v = call i32 @get()
  %more = icmp ne i32 %v, 0
  br i1 %more, label %header, label %exit

exit:
  ret void
}
