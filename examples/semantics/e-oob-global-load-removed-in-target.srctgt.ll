; CLASS: e
; EXPECT: preserved
; The reverse of e-oob-global-load-added-in-target: the reference has the
; load of @g[tid & 7], past the end of @g for tid & 7 >= 4 (undefined
; behaviour there), the target has not: the target is more defined,
; which LangRef allows.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [4 x i32] zeroinitializer, align 4
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 1, ptr addrspace(1) %q, align 4
  ret void
}

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %k = and i32 %tid, 7
  %r = getelementptr [4 x i32], ptr addrspace(1) @g, i32 0, i32 %k
  %u = load i32, ptr addrspace(1) %r, align 4
  %t = and i32 %tid, 63
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 1, ptr addrspace(1) %q, align 4
  ret void
}
