; CLASS: e
; EXPECT: proved
; FIXME: should be violated (LangRef). The alignment of an access through a
; value of unknown origin (`UNKNOWN_ALIGN` in
; model/llvm/src/to_ir/bounds.rs) catches it under every engine but is
; off: it took examples/gpu/atomics.cu `cas_max` past its budget. Today's
; verdict, recorded:
; The target's load of p[tid] claims align 16 where the reference's says 4
; (p itself is align 16): p + 4 * tid is not a multiple of 16 for tid = 1,
; so the target's load is undefined behaviour (LangRef: an unmet
; alignment) where the reference is defined (red-team review of
; 2026-11-29, F5, m-b; was proved).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) noundef align 16 dereferenceable(256) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %a = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %t
  %v = load i32, ptr addrspace(1) %a, align 4
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) noundef align 16 dereferenceable(256) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %a = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %t
  %v = load i32, ptr addrspace(1) %a, align 16
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}
