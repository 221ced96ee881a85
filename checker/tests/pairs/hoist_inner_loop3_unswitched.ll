; opt-19 -passes='loop(simple-loop-unswitch<nontrivial>)' -S hoist_inner_loop3.ll

declare i32 @c()

declare i1 @cond()

define void @hoist_inner_loop3(ptr %ptr) {
entry:
  br label %a.header

a.header:                                         ; preds = %a.latch, %entry
  %x.a = load i32, ptr %ptr, align 4
  br label %b.header

b.header:                                         ; preds = %b.latch, %a.header
  %x.b = load i32, ptr %ptr, align 4
  %v1 = call i1 @cond()
  %v1.fr = freeze i1 %v1
  br i1 %v1.fr, label %b.header.split.us, label %b.header.split

b.header.split.us:                                ; preds = %b.header
  br label %c.header.us

c.header.us:                                      ; preds = %b.header.split.us
  %0 = call i32 @c()
  br label %b.latch.split.us

b.latch.split.us:                                 ; preds = %c.header.us
  br label %b.latch

b.header.split:                                   ; preds = %b.header
  %x.a.lcssa = phi i32 [ %x.a, %b.header ]
  %x.b.lcssa = phi i32 [ %x.b, %b.header ]
  br label %c.header

c.header:                                         ; preds = %c.latch, %b.header.split
  %1 = call i32 @c()
  br label %c.body

c.body:                                           ; preds = %c.header
  %x.c = load i32, ptr %ptr, align 4
  br label %d.header

d.header:                                         ; preds = %d.header, %c.body
  store i32 %x.a.lcssa, ptr %ptr, align 4
  store i32 %x.b.lcssa, ptr %ptr, align 4
  store i32 %x.c, ptr %ptr, align 4
  %v2 = call i1 @cond()
  br i1 %v2, label %d.header, label %c.latch

c.latch:                                          ; preds = %d.header
  %v3 = call i1 @cond()
  br i1 %v3, label %c.header, label %exit

b.latch:                                          ; preds = %b.latch.split.us
  %v4 = call i1 @cond()
  br i1 %v4, label %b.header, label %a.latch

a.latch:                                          ; preds = %b.latch
  br label %a.header

exit:                                             ; preds = %c.latch
  ret void
}
