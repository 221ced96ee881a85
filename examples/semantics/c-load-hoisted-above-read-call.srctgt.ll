; CLASS: c
; EXPECT: proved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of @g and x are inexact, since
; they reach a stored value, so the values tried may miss one that matters;
; the product decides the pair.)
; The callee is declared `memory(read)`: it reads memory and writes none;
; the call is no event at all, so a load of @g may move above it. (It says
; `willreturn`: one that may not return is an event, review3 H14, and the
; simulation relates no load moved across an event: preserved, not proved.)
@g = addrspace(1) global i32 0
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @ext(i32) #0

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @ext(i32 %tid)
  %v = load i32, ptr addrspace(1) @g
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = load i32, ptr addrspace(1) @g
  call void @ext(i32 %tid)
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}

attributes #0 = { nounwind willreturn memory(read) }
