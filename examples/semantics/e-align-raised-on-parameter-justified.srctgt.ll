; CLASS: e
; EXPECT: proved
; The target's load of p[4 * (tid & 15)] claims align 16 where the
; reference's says 4, and p is align 16: every address it loads is a
; multiple of 16, so the target is as defined as the reference.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) noundef align 16 dereferenceable(256) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %k = and i32 %tid, 15
  %a = getelementptr inbounds [4 x i32], ptr addrspace(1) %p, i32 %k
  %v = load i32, ptr addrspace(1) %a, align 4
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) noundef align 16 dereferenceable(256) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %k = and i32 %tid, 15
  %a = getelementptr inbounds [4 x i32], ptr addrspace(1) %p, i32 %k
  %v = load i32, ptr addrspace(1) %a, align 16
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}
