; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of @g and x are inexact, since
; they reach a stored value, so the values tried may miss one that matters;
; the product decides the pair.)
; A call to an external function without memory attributes may write any
; memory that is not private (LangRef, `memory`), so a load of @g after it
; may read what it wrote: the target that loads @g before the call is
; wrong (LLVM's GVN and LICM keep such a load where it is).
@g = addrspace(1) global i32 0
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @ext(i32)

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
