; CLASS: memory-none
; EXPECT: violated
; EXPECT-MESSAGE: vote
; memory-none-store-across-call with the callee's `willreturn` removed
; (review3 H14): a `convergent memory(none)` call that may not return
; (LangRef) keeps its place among the stores: where it does not return,
; the reference has stored %a and the target has not. Its event is
; compared in the thread's order with the stores
; (model/llvm/src/to_ir/calls.rs, `mark_memory_none` only with `willreturn`).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @vote(i32) #0
attributes #0 = { convergent nounwind memory(none) }

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
  %t1 = add i32 %tid, 1
  %b = call i32 @vote(i32 %t1)
  store i32 %a, ptr addrspace(1) %out
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %b, ptr addrspace(1) %p1
  ret void
}
