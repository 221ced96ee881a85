; CLASS: memory-none
; EXPECT: violated
; EXPECT-MESSAGE: convergent operation 1
; Two `convergent memory(none)` calls swapped: neither touches memory, but
; their order against each other is observed (a convergent operation's
; order against the other convergent operations is part of a thread's
; behaviour), so `vote(tid)` then `sync(tid)` is not `sync(tid)` then
; `vote(tid)`.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @vote(i32) #0
declare i32 @sync(i32) #0
attributes #0 = { convergent nounwind willreturn memory(none) }

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @vote(i32 %tid)
  %b = call i32 @sync(i32 %tid)
  %s = add i32 %a, %b
  store i32 %s, ptr addrspace(1) %out
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @sync(i32 %tid)
  %a = call i32 @vote(i32 %tid)
  %s = add i32 %a, %b
  store i32 %s, ptr addrspace(1) %out
  ret void
}
