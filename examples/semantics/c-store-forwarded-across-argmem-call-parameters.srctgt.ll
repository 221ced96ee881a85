; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: parameters' addresses are not enumerated;
; the product decides the pair.)
; `memory(argmem: write)`: the call writes only through its pointer
; argument. %p and %q are parameters without `noalias`: they may point
; into one object, so the call may write what %q points to, and the value
; stored through %q may not be forwarded across it (LLVM's GVN does not).
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @w(ptr addrspace(1)) #0

define void @src(i32 %x, ptr addrspace(1) %p, ptr addrspace(1) %q) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %x, ptr addrspace(1) %q
  call void @w(ptr addrspace(1) %p)
  %v = load i32, ptr addrspace(1) %q
  %o = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

define void @tgt(i32 %x, ptr addrspace(1) %p, ptr addrspace(1) %q) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %x, ptr addrspace(1) %q
  call void @w(ptr addrspace(1) %p)
  %o = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %o
  ret void
}

attributes #0 = { nounwind memory(argmem: write) }
