; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.load.line
; The target's load of @g says align 8 where @g is only align 4 (the
; output of opt-19 infer-alignment with @g's own alignment left at 4): a
; placement of @g at an odd multiple of 4 makes the load undefined
; behaviour (LangRef: an unmet alignment), where the reference is defined.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = internal addrspace(1) global [8 x i32] zeroinitializer, align 4
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 3
  %e = getelementptr inbounds [8 x i32], ptr addrspace(1) @g, i32 0, i32 %t
  %v = load i32, ptr addrspace(1) %e, align 1
  store i32 %v, ptr addrspace(1) %e, align 1
  %w = load i64, ptr addrspace(1) @g, align 1
  %x = trunc i64 %w to i32
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %x, ptr addrspace(1) %q, align 1
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 3
  %e = getelementptr inbounds [8 x i32], ptr addrspace(1) @g, i32 0, i32 %t
  %v = load i32, ptr addrspace(1) %e, align 4
  store i32 %v, ptr addrspace(1) %e, align 4
  %w = load i64, ptr addrspace(1) @g, align 8
  %x = trunc i64 %w to i32
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %x, ptr addrspace(1) %q, align 4
  ret void
}
