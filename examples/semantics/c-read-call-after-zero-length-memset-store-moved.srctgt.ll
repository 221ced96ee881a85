; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the call's result is a function oracle
; whose domain is inexact; the product answers.)
; Review2 G12 (was preserved): where n = 0 the target moves the store to
; @g above @rd; the reference's memset of length n wrote nothing there, so
; the versions at @rd must differ. A memory intrinsic of a variable length
; counts `n != 0` writes (func.rs, memory_version.rs).
target triple = "nvptx64-nvidia-cuda"
@h = addrspace(1) global [2 x i8] zeroinitializer
@g = addrspace(1) global i32 0
@out = addrspace(1) global i32 0
declare i32 @rd() memory(read) nounwind willreturn
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
define void @src(i8 %x, i64 %n, i32 %y) {
entry:
  call void @llvm.memset.p1.i64(ptr addrspace(1) @h, i8 %x, i64 %n, i1 false)
  %r = call i32 @rd()
  store i32 %y, ptr addrspace(1) @g
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define void @tgt(i8 %x, i64 %n, i32 %y) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %zero, label %some
zero:
  store i32 %y, ptr addrspace(1) @g
  %r0 = call i32 @rd()
  br label %e
some:
  call void @llvm.memset.p1.i64(ptr addrspace(1) @h, i8 %x, i64 %n, i1 false)
  %r1 = call i32 @rd()
  store i32 %y, ptr addrspace(1) @g
  br label %e
e:
  %r = phi i32 [ %r0, %zero ], [ %r1, %some ]
  store i32 %r, ptr addrspace(1) @out
  ret void
}
