; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; Two `memory(none)` calls of one callee with other arguments, reordered
; (the stores keep their order): legal, each argument list has its one
; value whatever the order of the calls. Before the function oracle
; (2026-11-28) the calls read the callee's stream by position, so the
; target's `f(y)` got the reference's `f(x)` value: a false alarm.
; `--engine explicit` alone: inconclusive (observed values, class m).
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
  store i32 %a, ptr addrspace(1) %slot
  store i32 %b, ptr addrspace(1) %slot1
  ret void
}
