; CLASS: e
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; FIXME: should be violated (LangRef). The rule that catches it (an end of
; memory for pointers of unknown origin, `UNKNOWN_REGION` in
; model/llvm/src/to_ir/bounds.rs) is written and catches it under every
; engine, but is off: it took examples/gpu/atomics.cu `cas_max` past its
; budget. Today's verdict, recorded:
; The same hoist without dereferenceable(16) (a known-wrong mutant; LICM
; does not hoist there): p's object may end before p[2] (its extent is a
; free value of the scenario), so where the loop runs zero times the
; target's load is undefined behaviour and the reference defined (was
; preserved; red-team review of 2026-11-29, F5, s-b).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) noundef align 4 %p, i32 %n) {
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
  %e = getelementptr inbounds i32, ptr addrspace(1) %p, i32 2
  %v = load i32, ptr addrspace(1) %e, align 4
  %acc1 = xor i32 %v, %i
  %i1 = add i32 %i, 1
  br label %loop
exit:
  store i32 %acc, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) noundef align 4 %p, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %e = getelementptr inbounds i32, ptr addrspace(1) %p, i32 2
  %v = load i32, ptr addrspace(1) %e, align 4
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
