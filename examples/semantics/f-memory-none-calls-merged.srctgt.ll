; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; `opt -passes=early-cse`: two calls of a `memory(none)` function with the
; same argument merged into one. LangRef: such a call reads and writes no
; memory, so its result is a function of its arguments, and one thread
; gets one value for one argument list (DESIGN.md 2.9). Before, every
; call read the next value of its callee's stream, and the product found
; `f=0,16`: a false alarm under smt and the default engine. The mapping
; now gives a call the value of a dominating call with the same callee
; and arguments (model/llvm/src/to_ir/pure_calls.rs). (Under --engine
; explicit alone: `f` reaches a stored value, its domain is inexact.)
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @f(i32) memory(none)

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @f(i32 %x)
  %b = call i32 @f(i32 %x)
  %s = add i32 %a, %b
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %s, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @f(i32 %x)
  %s = add i32 %a, %a
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %s, ptr addrspace(1) %slot, align 4
  ret void
}
