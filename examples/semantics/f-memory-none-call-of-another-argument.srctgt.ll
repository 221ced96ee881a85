; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: store @out
; EXPECT-explicit: inconclusive
; The target calls `f(y)` where the reference calls `f(x)`: a function of
; its arguments gives other values for other arguments. Before, each
; call read the next value of its callee's stream whatever its argument,
; so both read the same one: preserved under every engine. The mapping
; now offsets the value read by a mix of the arguments
; (model/llvm/src/to_ir/pure_calls.rs). (Under --engine explicit alone:
; `f` reaches a stored value, its domain is inexact.)
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @f(i32) memory(none) nounwind willreturn

define void @src(i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @f(i32 %x)
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %a, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @f(i32 %y)
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %a, ptr addrspace(1) %slot
  ret void
}
