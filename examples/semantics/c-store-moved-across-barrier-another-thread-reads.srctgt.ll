; CLASS: c
; EXPECT: violated
; A thread's store to its shared slot moved below the barrier after
; which its neighbour reads the slot: the store now races with the
; neighbour's load (a barrier is a synchronisation point; the hazard
; check judges what other threads see).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@buf = addrspace(3) global [64 x i32] undef, align 4
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %t
  store i32 %x, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %n = xor i32 %t, 1
  %q = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %n
  %v = load i32, ptr addrspace(3) %q, align 4
  %o = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %t
  call void @llvm.nvvm.barrier0()
  store i32 %x, ptr addrspace(3) %p, align 4
  %n = xor i32 %t, 1
  %q = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %n
  %v = load i32, ptr addrspace(3) %q, align 4
  %o = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}
