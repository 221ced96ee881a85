; CLASS: i
; EXPECT: violated
; A volatile `llvm.memcpy` (isvolatile true) is volatile accesses, always
; observed: its load of global memory is, though its value goes only to a
; private slot nobody reads, so deleting the copy is caught.
@g = addrspace(1) global i32 0
declare void @llvm.memcpy.p5.p1.i64(ptr addrspace(5), ptr addrspace(1), i64, i1)

define void @src(i32 %a) {
entry:
  %y = alloca i32, addrspace(5)
  call void @llvm.memcpy.p5.p1.i64(ptr addrspace(5) %y, ptr addrspace(1) @g, i64 4, i1 true)
  ret void
}

define void @tgt(i32 %a) {
entry:
  ret void
}
