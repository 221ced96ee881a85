; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the slot's value and x are
; inexact, since they reach a stored value; the product decides the pair.)
; The address of a private array is stored to a global (captured), so an
; external function that may write any memory (no attributes) may write the
; array through it, even though the call does not take it: the value stored
; may not be forwarded across the call.
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
@gp = addrspace(1) global ptr null
declare void @ext(i32)

define void @src(i32 %x) {
entry:
  %a = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = getelementptr [2 x i32], ptr %a, i32 0, i32 1
  store ptr %a, ptr addrspace(1) @gp
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
  store ptr %a, ptr addrspace(1) @gp
  store i32 %x, ptr %e
  call void @ext(i32 %tid)
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %p
  ret void
}
