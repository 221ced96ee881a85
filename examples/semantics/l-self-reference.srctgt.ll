; CLASS: l
; EXPECT: error
; EXPECT-MESSAGE: Only PHI nodes may reference their own value!
; A target that is not valid IR is bad input (exit 2, LLVM's message),
; never `proved` (issue 20, class l).
declare void @op() #0

define i32 @src() #0 {
entry:
  call void @op()
  ret i32 0
}

define i32 @tgt() #0 {
entry:
  %x = add i32 %x, 1
  call void @op()
  ret i32 %x
}

attributes #0 = { convergent nounwind }
