; CLASS: int
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of x are inexact, since they
; reach an observed value, a stored value or an argument of a convergent
; operation, so the values tried may miss one that matters; the default
; engine and smt decide the pair.)
; `ctpop(x)` computed as the population counts of its two halves, and
; `ctpop(x) + 0`: the same value for every x (a check that the model
; computes `llvm.ctpop` as a number, not as an opaque value of its
; operand's name).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x [2 x i32]] zeroinitializer

define void @src(i64 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x [2 x i32]], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %slot1 = getelementptr inbounds i32, ptr addrspace(1) %slot, i64 1
  %p = call i64 @llvm.ctpop.i64(i64 %x)
  %p32 = trunc i64 %p to i32
  store i32 %p32, ptr addrspace(1) %slot
  %q = call i32 @llvm.nvvm.popc.ll(i64 %x)
  store i32 %q, ptr addrspace(1) %slot1
  ret void
}

define void @tgt(i64 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x [2 x i32]], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %slot1 = getelementptr inbounds i32, ptr addrspace(1) %slot, i64 1
  %lo = trunc i64 %x to i32
  %hi64 = lshr i64 %x, 32
  %hi = trunc i64 %hi64 to i32
  %a = call i32 @llvm.ctpop.i32(i32 %lo)
  %b = call i32 @llvm.ctpop.i32(i32 %hi)
  %s = add i32 %a, %b
  store i32 %s, ptr addrspace(1) %slot
  %s0 = add i32 %s, 0
  store i32 %s0, ptr addrspace(1) %slot1
  ret void
}

declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.nvvm.popc.ll(i64)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
