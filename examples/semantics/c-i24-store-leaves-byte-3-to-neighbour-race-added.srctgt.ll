; CLASS: c
; EXPECT: violated
; Thread t stores i24 to bytes 0..2 of word t and i8 to byte 3 of word
; t^1: race-free. The target adds an unused i32 load of word t, which
; reads byte 3 that thread t^1 writes: a race.
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @f(i32)

define void @src(ptr addrspace(1) %p, i24 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i24 %x, ptr addrspace(1) %a, align 4
  %o = xor i32 %tid, 1
  %b = getelementptr i32, ptr addrspace(1) %p, i32 %o
  %b3 = getelementptr i8, ptr addrspace(1) %b, i64 3
  store i8 7, ptr addrspace(1) %b3, align 1
  call void @f(i32 0)
  ret void
}

define void @tgt(ptr addrspace(1) %p, i24 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %u = load i32, ptr addrspace(1) %a, align 4
  store i24 %x, ptr addrspace(1) %a, align 4
  %o = xor i32 %tid, 1
  %b = getelementptr i32, ptr addrspace(1) %p, i32 %o
  %b3 = getelementptr i8, ptr addrspace(1) %b, i64 3
  store i8 7, ptr addrspace(1) %b3, align 1
  call void @f(i32 0)
  ret void
}
