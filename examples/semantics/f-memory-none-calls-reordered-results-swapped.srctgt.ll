; CLASS: f
; EXPECT: violated
; EXPECT-explicit: inconclusive
; The mutant of `f-memory-none-calls-reordered`: the calls are reordered
; and their results swapped, so `f(y)` is stored where the reference
; stores `f(x)`. `--engine explicit` alone: inconclusive (class m).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [2048 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @f(i32) memory(none) nounwind willreturn

define void @src(i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = shl i32 %tid, 1
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %i
  %j = or disjoint i32 %i, 1
  %slot1 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %j
  %a = call i32 @f(i32 %x)
  %b = call i32 @f(i32 %y)
  store i32 %a, ptr addrspace(1) %slot
  store i32 %b, ptr addrspace(1) %slot1
  ret void
}

define void @tgt(i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = shl i32 %tid, 1
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %i
  %j = or disjoint i32 %i, 1
  %slot1 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %j
  %b = call i32 @f(i32 %y)
  %a = call i32 @f(i32 %x)
  store i32 %b, ptr addrspace(1) %slot
  store i32 %a, ptr addrspace(1) %slot1
  ret void
}
