; CLASS: k
; EXPECT: inconclusive
; EXPECT-MESSAGE: max-depth
; A recursive helper whose depth the thread's argument decides: runs deeper
; than the interpreter's call depth (32) are cut, the product does not model
; recursion, and the report says so (inconclusive, naming max-depth) rather
; than `preserved`.
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier0() #0
attributes #0 = { convergent nounwind }

define void @rec(i32 %n) #0 {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %more, label %done
more:
  call void @llvm.nvvm.barrier0()
  %m = sub i32 %n, 1
  call void @rec(i32 %m)
  br label %done
done:
  ret void
}

define void @src(i32 %n) #0 {
entry:
  call void @rec(i32 %n)
  ret void
}

define void @tgt(i32 %n) #0 {
entry:
  call void @rec(i32 %n)
  ret void
}
