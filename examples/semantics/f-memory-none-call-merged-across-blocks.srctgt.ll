; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; `opt -passes=gvn`: a `memory(none)` call in a block that a call with the
; same argument dominates takes that call's value (LangRef: a function of
; its arguments), so GVN deletes it. Was a false alarm under smt and the
; default engine (each call read its own stream value). (Under --engine
; explicit alone: `f` reaches a stored value, its domain is inexact.)
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @f(i32) memory(none) nounwind willreturn

define void @src(i32 %x, i1 %c) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %a = call i32 @f(i32 %x)
  store i32 %a, ptr addrspace(1) %slot
  br i1 %c, label %then, label %end
then:
  %b = call i32 @f(i32 %x)
  %b2 = mul i32 %b, 3
  store i32 %b2, ptr addrspace(1) %slot
  br label %end
end:
  ret void
}

define void @tgt(i32 %x, i1 %c) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %a = call i32 @f(i32 %x)
  store i32 %a, ptr addrspace(1) %slot, align 4
  br i1 %c, label %then, label %end
then:
  %b2 = mul i32 %a, 3
  store i32 %b2, ptr addrspace(1) %slot, align 4
  br label %end
end:
  ret void
}
