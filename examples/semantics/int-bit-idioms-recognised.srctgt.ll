; CLASS: int
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of x are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; InstCombine (opt-19) recognises the bit idioms of CUDA code: a rotate
; becomes `llvm.fshl`, a byte swap `llvm.bswap`, `x == 0 ? 32 : ctlz(x,
; true)` (`__clz`) becomes `ctlz(x, false)`. The target is opt-19's own
; output; the model computes each intrinsic exactly
; (model/llvm/src/to_ir/intrinsics.rs), so every value of %x agrees.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x [8 x i32]] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x [8 x i32]], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %slot1 = getelementptr inbounds i32, ptr addrspace(1) %slot, i64 1
  %slot2 = getelementptr inbounds i32, ptr addrspace(1) %slot, i64 3
  %a = shl i32 %x, 3
  %b = lshr i32 %x, 29
  %r = or i32 %a, %b
  store i32 %r, ptr addrspace(1) %slot
  %b0 = and i32 %x, 255
  %b1 = and i32 %x, 65280
  %b2 = and i32 %x, 16711680
  %b3 = lshr i32 %x, 24
  %s0 = shl i32 %b0, 24
  %s1 = shl i32 %b1, 8
  %s2 = lshr i32 %b2, 8
  %o1 = or i32 %s0, %s1
  %o2 = or i32 %o1, %s2
  %o3 = or i32 %o2, %b3
  store i32 %o3, ptr addrspace(1) %slot1
  %z = icmp eq i32 %x, 0
  %cl = call i32 @llvm.ctlz.i32(i32 %x, i1 true)
  %clz = select i1 %z, i32 32, i32 %cl
  store i32 %clz, ptr addrspace(1) %slot2
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x [8 x i32]], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %slot1 = getelementptr inbounds i8, ptr addrspace(1) %slot, i64 4
  %slot2 = getelementptr inbounds i8, ptr addrspace(1) %slot, i64 12
  %r = call i32 @llvm.fshl.i32(i32 %x, i32 %x, i32 3)
  store i32 %r, ptr addrspace(1) %slot, align 4
  %o3 = call i32 @llvm.bswap.i32(i32 %x)
  store i32 %o3, ptr addrspace(1) %slot1, align 4
  %cl = call range(i32 0, 33) i32 @llvm.ctlz.i32(i32 %x, i1 false)
  store i32 %cl, ptr addrspace(1) %slot2, align 4
  ret void
}

declare i32 @llvm.ctlz.i32(i32, i1 immarg)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
