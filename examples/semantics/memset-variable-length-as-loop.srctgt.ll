; CLASS: c
; EXPECT: preserved
; `llvm.memset` of a length that is a value against the loop of byte
; stores it stands for (LoopIdiomRecognize's converse).
@out = addrspace(1) global [64 x i8] undef
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)

define void @src(i64 %n) {
entry:
  call void @llvm.memset.p1.i64(ptr addrspace(1) @out, i8 7, i64 %n, i1 false)
  ret void
}

define void @tgt(i64 %n) {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %j, %body ]
  %c = icmp ult i64 %i, %n
  br i1 %c, label %body, label %end
body:
  %p = getelementptr i8, ptr addrspace(1) @out, i64 %i
  store i8 7, ptr addrspace(1) %p
  %j = add i64 %i, 1
  br label %head
end:
  ret void
}
