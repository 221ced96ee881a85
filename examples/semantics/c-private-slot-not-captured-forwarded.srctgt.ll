; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of x is inexact, since it
; reaches a stored value; the product decides the pair.)
; A private array whose address goes nowhere but its own accesses: an
; external function that may write any memory (no attributes) cannot reach
; it (LangRef: an alloca is reached only through pointers based on it), so
; GVN forwards the stored value across the call.
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @ext(i32)

define void @src(i32 %x) {
entry:
  %a = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = getelementptr [2 x i32], ptr %a, i32 0, i32 1
  store i32 %x, ptr %e
  call void @ext(i32 %tid)
  %v = load i32, ptr %e
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}

define void @tgt(i32 %x) {
entry:
  %a = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = getelementptr [2 x i32], ptr %a, i32 0, i32 1
  store i32 %x, ptr %e
  call void @ext(i32 %tid)
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %p
  ret void
}
