; CLASS: b
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of x is inexact, since it
; reaches a stored value; the product decides the pair.)
; A call that accesses only inaccessible memory (LangRef: memory no pointer
; of the module reaches) cannot read or write @g, so a store to @g may move
; across it (LLVM's DSE and LICM may do so); its order against other such
; calls and its arguments stay observed.
@g = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @log(i32) #0

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @g, i32 0, i32 %tid
  store i32 %x, ptr addrspace(1) %p
  call void @log(i32 %tid)
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [64 x i32], ptr addrspace(1) @g, i32 0, i32 %tid
  call void @log(i32 %tid)
  store i32 %x, ptr addrspace(1) %p
  ret void
}

attributes #0 = { nounwind memory(inaccessiblemem: readwrite) }
