; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of group_count.x, group_id.y are
;  inexact, class m; the other engines prove or preserve it.)
; `gridDim.x` is at least 1 (`range(i32 1, -2147483648)`), so a branch on
; `gridDim.x == 0` never goes that way and a pass may fold it; likewise
; `blockIdx.y` is below 65535.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %z = icmp eq i32 %n, 0
  %y = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %big = icmp uge i32 %y, 65535
  %either = or i1 %z, %big
  br i1 %either, label %never, label %always

never:
  store i32 1, ptr addrspace(1) %slot
  ret void

always:
  store i32 2, ptr addrspace(1) %slot
  ret void
}

define void @tgt() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  store i32 2, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
