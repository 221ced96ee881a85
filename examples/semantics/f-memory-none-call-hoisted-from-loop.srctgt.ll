; CLASS: f
; EXPECT: violated
; EXPECT-explicit: inconclusive
; FIXME: a false alarm. LICM hoists a loop-invariant `memory(none)` call
; out of a loop (`opt -passes='loop-mssa(licm)'`): legal, the call returns
; one value for one argument. The model gives a call the value of a
; *dominating* call with the same arguments (pure_calls.rs), and the call
; in the loop dominates nothing of its own later iterations, so each
; iteration reads the next stream value and the reference's sum differs
; from the target's. A faithful model needs the result as a function of
; the arguments in every engine (an uninterpreted function per thread in
; the product, a table per thread in the interpreter).
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
