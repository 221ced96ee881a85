; CLASS: b
; EXPECT: violated
; The same move across a call without memory attributes, which may read @g:
; the store must stay before it (LLVM never moves it).
@g = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @log(i32)

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @g, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %p
  call void @log(i32 %tid)
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @g, i32 0, i32 %tid
  call void @log(i32 %tid)
  store i32 %x, ptr addrspace(1) %p
  ret void
}
