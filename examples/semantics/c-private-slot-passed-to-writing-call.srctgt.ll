; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the slot's value and x are
; inexact, since they reach a stored value; the product decides the pair.)
; clang -O0's way to get a result through a pointer: the address of a
; private slot is passed to an external function that may write any memory
; (no attributes), so the slot's value after the call is what the call
; left there, not the value stored before it.
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @init(ptr)

define void @src(i32 %x) {
entry:
  %a = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = getelementptr [2 x i32], ptr %a, i32 0, i32 1
  store i32 %x, ptr %e
  call void @init(ptr %a)
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
  call void @init(ptr %a)
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %p
  ret void
}
