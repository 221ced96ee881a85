; CLASS: memory-none
; EXPECT: violated
; EXPECT-MESSAGE: vote
; The store moved across the `convergent memory(none)` call as in
; `memory-none-store-across-call`, but the target's second call votes
; `tid + 2` instead of `tid + 1`: its arguments are still observed.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @vote(i32) #0
attributes #0 = { convergent nounwind willreturn memory(none) }

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @vote(i32 %tid)
  store i32 %a, ptr addrspace(1) %out
  %t1 = add i32 %tid, 1
  %b = call i32 @vote(i32 %t1)
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %b, ptr addrspace(1) %p1
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @vote(i32 %tid)
  %t1 = add i32 %tid, 2
  %b = call i32 @vote(i32 %t1)
  store i32 %a, ptr addrspace(1) %out
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %b, ptr addrspace(1) %p1
  ret void
}
