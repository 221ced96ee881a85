; CLASS: memory-none
; EXPECT: violated
; EXPECT-MESSAGE: convergent operation 1
; A `convergent memory(none)` call moved across a convergent call that may
; access memory (`ballot`, no `memory` attribute): the stores stay after
; both, so only the order of the two convergent operations changes, and
; that order is observed.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @vote(i32) #0
declare i32 @ballot(i32) #1
attributes #0 = { convergent nounwind willreturn memory(none) }
attributes #1 = { convergent nounwind }

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @vote(i32 %tid)
  %b = call i32 @ballot(i32 %tid)
  store i32 %a, ptr addrspace(1) %out
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %b, ptr addrspace(1) %p1
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @ballot(i32 %tid)
  %a = call i32 @vote(i32 %tid)
  store i32 %a, ptr addrspace(1) %out
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %b, ptr addrspace(1) %p1
  ret void
}
