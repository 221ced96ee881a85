; CLASS: h
; EXPECT: preserved
; The same copy as memcpy-volatile-deleted, not volatile: the load is not
; observed (its value goes only to private memory, thread state nobody
; reads), so deleting the copy, as DSE and SROA do, changes nothing.
@g = addrspace(1) global i32 0
declare void @llvm.memcpy.p5.p1.i64(ptr addrspace(5), ptr addrspace(1), i64, i1)

define void @src(i32 %a) {
entry:
  %y = alloca i32, addrspace(5)
  call void @llvm.memcpy.p5.p1.i64(ptr addrspace(5) %y, ptr addrspace(1) @g, i64 4, i1 false)
  ret void
}

define void @tgt(i32 %a) {
entry:
  ret void
}
