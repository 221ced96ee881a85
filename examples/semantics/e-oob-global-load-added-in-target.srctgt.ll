; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.load.line
; The target adds an unused load of @g[100], past the end of the
; 4-element global @g: undefined behaviour in the target only (red-team
; review of 2026-11-29, F5, n-b; was proved by simulation).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [4 x i32] zeroinitializer, align 4
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 1, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %u = load i32, ptr addrspace(1) getelementptr ([4 x i32], ptr addrspace(1) @g, i64 0, i64 100), align 4
  %t = and i32 %tid, 63
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 1, ptr addrspace(1) %q, align 4
  ret void
}
