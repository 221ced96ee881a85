; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the call's result is a function oracle
; whose domain is inexact; the product answers.)
; Review2 G2 (was preserved): clang declares every external CUDA/HIP/OpenCL
; device function `convergent`, and a convergent call skipped the read rules.
; @rd is `convergent memory(read)`; the slot's address is stored to @gp
; (captured), so @rd may read it; the target stores 2 instead of 1 before
; the call. The call stays a convergent event, and its result is the
; function oracle `rd.reads` of the event's value and the captured bytes
; (model/llvm/src/to_ir/calls.rs, call_reads.rs).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@gp = addrspace(1) global ptr null
@out = addrspace(1) global i32 0
declare i32 @rd() convergent memory(read) nounwind willreturn

define void @src() convergent {
entry:
  %a = alloca i32, align 4
  store ptr %a, ptr addrspace(1) @gp
  store i32 1, ptr %a
  %r = call i32 @rd() convergent
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define void @tgt() convergent {
entry:
  %a = alloca i32, align 4
  store ptr %a, ptr addrspace(1) @gp
  store i32 2, ptr %a
  %r = call i32 @rd() convergent
  store i32 %r, ptr addrspace(1) @out
  ret void
}
