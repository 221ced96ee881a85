; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of group_id.x are
;  inexact, class m; the other engines prove or preserve it.)
; IPSCCP knows `blockIdx.x` lies in [0, 2^31 - 1) (clang's `range`
; attribute) and turns its `sext` into `zext nneg`; the model's group
; index has that range, so no scenario has a negative one.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i64] zeroinitializer

define void @src() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i64], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %b = call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %w = sext i32 %b to i64
  store i64 %w, ptr addrspace(1) %slot
  ret void
}

define void @tgt() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i64], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %b = call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %w = zext nneg i32 %b to i64
  store i64 %w, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
