; @flag_loop of entry-edge-convergent.ll after a jump threading that
; ignores the loop header, written by hand: the edge from `a`, on which
; %p is true, goes straight to `s`, the block of sync(), and the edge from
; `b`, on which it is false, straight to `latch`. `header` keeps only the
; back edge. `convcheck check entry-edge-convergent.ll
; entry-edge-convergent-bad.ll --function flag_loop` compares the two.

declare void @sync() convergent
declare void @work()
declare i32 @get()

define void @flag_loop(i32 %x) {
entry:
  %c = icmp sle i32 %x, 0
  br i1 %c, label %b, label %a

a:
  call void @work()
  br label %s

b:
  br label %latch

header:
  br i1 %q, label %s, label %latch

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
