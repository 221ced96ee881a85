; CLASS: c
; EXPECT: violated
; The target copies one byte less than the reference.
@in = addrspace(1) global [64 x i8] undef
@out = addrspace(1) global [64 x i8] undef
declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)

define void @src(i64 %n) {
entry:
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) @out, ptr addrspace(1) @in, i64 %n, i1 false)
  ret void
}

define void @tgt(i64 %n) {
entry:
  %m = add i64 %n, -1
  %z = icmp eq i64 %n, 0
  %k = select i1 %z, i64 0, i64 %m
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) @out, ptr addrspace(1) @in, i64 %k, i1 false)
  ret void
}
