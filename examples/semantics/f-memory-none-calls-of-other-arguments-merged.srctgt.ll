; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: store @out
; EXPECT-explicit: inconclusive
; Two calls of a `memory(none)` function with different arguments merged
; into one: wrong wherever f(x) != f(y). (Under --engine explicit alone:
; `f` reaches a stored value, its domain is inexact.)
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @f(i32) memory(none) nounwind willreturn

define void @src(i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @f(i32 %x)
  %b = call i32 @f(i32 %y)
  %s = add i32 %a, %b
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %s, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @f(i32 %x)
  %s = add i32 %a, %a
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %s, ptr addrspace(1) %slot
  ret void
}
