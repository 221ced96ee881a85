; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of @a and x are inexact, since
; they reach a stored value; the product decides the pair.)
; `memory(argmem: write)`: the call writes only through its pointer
; argument, into @a's object (LangRef: an access based on an argument stays
; in the argument's object), and may write any element of it: the value
; stored to @a[2] may not be forwarded across the call.
@a = addrspace(1) global [4 x i32] zeroinitializer
@b = addrspace(1) global i32 0
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @w(ptr addrspace(1)) #0

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = getelementptr [4 x i32], ptr addrspace(1) @a, i32 0, i32 2
  store i32 %x, ptr addrspace(1) %e
  call void @w(ptr addrspace(1) @a)
  %v = load i32, ptr addrspace(1) %e
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = getelementptr [4 x i32], ptr addrspace(1) @a, i32 0, i32 2
  store i32 %x, ptr addrspace(1) %e
  call void @w(ptr addrspace(1) @a)
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %p
  ret void
}

attributes #0 = { nounwind memory(argmem: write) }
