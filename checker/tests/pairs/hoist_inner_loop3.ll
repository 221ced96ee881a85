; LLVM's llvm/test/Transforms/SimpleLoopUnswitch/nontrivial-unswitch.ll, function
; hoist_inner_loop3 (CHECK lines left out), with its declarations as the test
; writes them (effectful calls). Target: hoist_inner_loop3_unswitched.ll.

declare i32 @c()
declare i1 @cond()

define void @hoist_inner_loop3(ptr %ptr) {
entry:
  br label %a.header

a.header:
  %x.a = load i32, ptr %ptr
  br label %b.header

b.header:
  %x.b = load i32, ptr %ptr
  %v1 = call i1 @cond()
  br label %c.header

c.header:
  call i32 @c()
  br i1 %v1, label %b.latch, label %c.body

c.body:
  %x.c = load i32, ptr %ptr
  br label %d.header

d.header:
  store i32 %x.a, ptr %ptr
  store i32 %x.b, ptr %ptr
  store i32 %x.c, ptr %ptr
  %v2 = call i1 @cond()
  br i1 %v2, label %d.header, label %c.latch

c.latch:
  %v3 = call i1 @cond()
  br i1 %v3, label %c.header, label %exit

b.latch:
  %v4 = call i1 @cond()
  br i1 %v4, label %b.header, label %a.latch

a.latch:
  br label %a.header

exit:
  ret void
}
