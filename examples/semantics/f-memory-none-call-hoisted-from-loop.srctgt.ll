; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; LICM hoists a loop-invariant `memory(none)` call out of a loop
; (`opt -passes='loop-mssa(licm)'`): legal, the call returns one value for
; one argument list within a thread. The call reads an oracle of class
; `function` (model/llvm/src/to_ir/pure_calls.rs): a free value per thread
; and argument list in the interpreter (`f(7)`), an uninterpreted function
; of the arguments in the product and the simulation. Before (2026-11-28),
; each iteration read the next stream value and this was a false alarm
; under every engine. `--engine explicit` alone: inconclusive (the stored
; sum is an observed value, class m).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @f(i32) memory(none) nounwind willreturn

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %head ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %head ]
  %v = call i32 @f(i32 %x)
  %acc1 = add i32 %acc, %v
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 3
  br i1 %more, label %head, label %exit
exit:
  store i32 %acc1, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call i32 @f(i32 %x)
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %head ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %head ]
  %acc1 = add i32 %acc, %v
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 3
  br i1 %more, label %head, label %exit
exit:
  store i32 %acc1, ptr addrspace(1) %slot
  ret void
}
