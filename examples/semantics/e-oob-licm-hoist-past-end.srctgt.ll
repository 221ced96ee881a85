; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.load.line
; The same hoist of a load of @g[4], past the end of [4 x i32]: where the
; loop runs zero times the reference is defined and the target's hoisted
; load undefined behaviour (was proved: memory was a map of addresses).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [4 x i32] zeroinitializer, align 4
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %e = getelementptr inbounds [4 x i32], ptr addrspace(1) @g, i32 0, i32 4
  %v = load i32, ptr addrspace(1) %e, align 4
  %acc1 = xor i32 %v, %i
  %i1 = add i32 %i, 1
  br label %loop
exit:
  store i32 %acc, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %v = load i32, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @g, i64 16), align 4
  br label %loop

loop:                                             ; preds = %body, %entry
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit

body:                                             ; preds = %loop
  %acc1 = xor i32 %v, %i
  %i1 = add i32 %i, 1
  br label %loop

exit:                                             ; preds = %loop
  store i32 %acc, ptr addrspace(1) %q, align 4
  ret void
}
