; CLASS: e
; EXPECT: violated
; A stored poison value is no undefined behaviour (LangRef): the run goes
; on, and what it observes later is compared. The reference stores
; `add nsw i32 %x, 1` (poison at x = 2^31 - 1) and then 5; the target
; stores the same sum and then 6 where x = 2^31 - 1. At that x the
; reference's second store (5) is defined and the target's (6) differs.
; Before 2026-11-29 a stored poison value stopped the run as undefined
; behaviour, so the reference constrained nothing there: proved.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [2048 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %s = add nsw i32 %x, 1
  store i32 %s, ptr addrspace(1) %slot
  %tid2 = add i32 %tid, 1024
  %slot2 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid2
  store i32 5, ptr addrspace(1) %slot2
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %s = add nsw i32 %x, 1
  store i32 %s, ptr addrspace(1) %slot
  %tid2 = add i32 %tid, 1024
  %slot2 = getelementptr [2048 x i32], ptr addrspace(1) @out, i32 0, i32 %tid2
  %m = icmp eq i32 %x, 2147483647
  %v = select i1 %m, i32 6, i32 5
  store i32 %v, ptr addrspace(1) %slot2
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
