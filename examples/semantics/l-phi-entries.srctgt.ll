; CLASS: l
; EXPECT: error
; EXPECT-MESSAGE: PHINode should have one entry for each predecessor
; A phi with an entry for a block that is not its predecessor.
declare void @op() #0

define i32 @src(i1 %c) #0 {
entry:
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  %p = phi i32 [ 0, %entry ], [ 1, %a ]
  ret i32 %p
}

define i32 @tgt(i1 %c) #0 {
entry:
  br i1 %c, label %a, label %b
a:
  call void @op()
  br label %b
b:
  %p = phi i32 [ 0, %entry ], [ 1, %a ], [ 2, %b ]
  ret i32 %p
}

attributes #0 = { convergent nounwind }
