; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of group_id.x are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; `blockIdx.x` read twice and the reads merged (EarlyCSE, GVN): the group
; index is one value per group, the same at every read (issue 20, class f;
; model/llvm/src/to_ir/groups.rs).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x [2 x i32]] zeroinitializer

define void @src() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x [2 x i32]], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %slot1 = getelementptr inbounds i32, ptr addrspace(1) %slot, i64 1
  %a = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %a, ptr addrspace(1) %slot
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %b, ptr addrspace(1) %slot1
  ret void
}

define void @tgt() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x [2 x i32]], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %slot1 = getelementptr inbounds i32, ptr addrspace(1) %slot, i64 1
  %a = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %a, ptr addrspace(1) %slot
  store i32 %a, ptr addrspace(1) %slot1
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
