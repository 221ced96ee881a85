; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the call's result is a function oracle
; whose domain is inexact; the product answers.)
; Review2 G12 (was a false alarm): `memset(@g, x, n)` against `if (n != 0)
; memset(@g, x, n)`: the same writes; a memset of length 0 counts no write
; in the memory version, so @rd reads the same version in both.
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [2 x i8] zeroinitializer
@out = addrspace(1) global i32 0
declare i32 @rd() memory(read) nounwind willreturn
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
define void @src(i8 %x, i64 %n) {
entry:
  call void @llvm.memset.p1.i64(ptr addrspace(1) @g, i8 %x, i64 %n, i1 false)
  %r = call i32 @rd()
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define void @tgt(i8 %x, i64 %n) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %d, label %m
m:
  call void @llvm.memset.p1.i64(ptr addrspace(1) @g, i8 %x, i64 %n, i1 false)
  br label %d
d:
  %r = call i32 @rd()
  store i32 %r, ptr addrspace(1) @out
  ret void
}
