; CLASS: m
; EXPECT: violated
; EXPECT-explicit: inconclusive
; The reference compares an i64 with 5; the target compares its low 32
; bits: v = 2^32 + 5 votes differently. The explicit engine's domains read
; `v` at 64 bits in one program and through a 32-bit view in the other and
; say so (an inexact domain, listed among the bounds; it tries 0 and 5):
; alone, it answers inconclusive naming `v`; the product tries every
; value, and the default engine sends a stage with inexact domains to it.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0
attributes #0 = { convergent nounwind }

define void @src(ptr addrspace(1) %out, i64 %v) {
entry:
  %c = icmp eq i64 %v, 5
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  store i32 %b, ptr addrspace(1) %out
  ret void
}

define void @tgt(ptr addrspace(1) %out, i64 %v) {
entry:
  %t = trunc i64 %v to i32
  %c = icmp eq i32 %t, 5
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %c)
  store i32 %b, ptr addrspace(1) %out
  ret void
}
