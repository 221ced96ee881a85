; CLASS: f
; EXPECT: violated
; EXPECT-explicit: inconclusive
; The mutant of `f-memory-none-call-hoisted-from-loop`: the hoisted call
; passes `x + 1`, another argument list, so another value (the function
; oracle's values for `x` and `x + 1` are free and apart). `--engine
; explicit` alone: inconclusive (an observed value, class m).
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
  %x1 = add i32 %x, 1
  %v = call i32 @f(i32 %x1)
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
