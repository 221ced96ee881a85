; CLASS: int
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of the
;  arguments a and b are inexact, class m; the other engines decide it.)
; The `llvm.*.with.overflow` intrinsics (`__builtin_add_overflow` and
; friends; InstCombine makes them from these idioms and back): each
; overflow flag written as the comparison that computes it, the sum and
; the products as plain arithmetic. `uadd`: the sum is below an operand;
; `usub`: the first operand is below the second; `smul.i32`: the exact
; 64-bit product does not fit 32 bits. (The 64-bit `umul` and `smul`,
; whose flag is a 64-bit division to z3, are checked against opt-19's
; constant folding in checker/tests/int_intrinsics.rs instead: 5 s a check
; here.)
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x [8 x i64]] zeroinitializer

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(i32 %a, i32 %b) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x [8 x i64]], ptr addrspace(1) @out, i32 0, i32 %tid
  %s1 = getelementptr inbounds i64, ptr addrspace(1) %slot, i64 1
  %s2 = getelementptr inbounds i64, ptr addrspace(1) %slot, i64 2
  %ua = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %a, i32 %b)
  %ua.v = extractvalue { i32, i1 } %ua, 0
  %ua.o = extractvalue { i32, i1 } %ua, 1
  %us = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %a, i32 %b)
  %us.o = extractvalue { i32, i1 } %us, 1
  %sm = call { i32, i1 } @llvm.smul.with.overflow.i32(i32 %a, i32 %b)
  %sm.v = extractvalue { i32, i1 } %sm, 0
  %sm.o = extractvalue { i32, i1 } %sm, 1
  %w0 = zext i32 %ua.v to i64
  store i64 %w0, ptr addrspace(1) %slot, align 8
  %f1 = zext i1 %ua.o to i64
  %f2 = zext i1 %us.o to i64
  %f3 = zext i1 %sm.o to i64
  %f12 = or i64 %f1, 0
  %m2 = shl i64 %f2, 1
  %m3 = shl i64 %f3, 2
  %o1 = or i64 %f12, %m2
  %o2 = or i64 %o1, %m3
  %o3 = or i64 %o2, 0
  store i64 %o3, ptr addrspace(1) %s1, align 8
  %w3 = sext i32 %sm.v to i64
  store i64 %w3, ptr addrspace(1) %s2, align 8
  ret void
}

define void @tgt(i32 %a, i32 %b) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x [8 x i64]], ptr addrspace(1) @out, i32 0, i32 %tid
  %s1 = getelementptr inbounds i64, ptr addrspace(1) %slot, i64 1
  %s2 = getelementptr inbounds i64, ptr addrspace(1) %slot, i64 2
  %ua.v = add i32 %a, %b
  %ua.o = icmp ult i32 %ua.v, %a
  %us.o = icmp ult i32 %a, %b
  %a64 = sext i32 %a to i64
  %b64 = sext i32 %b to i64
  %p64 = mul i64 %a64, %b64
  %sm.v = trunc i64 %p64 to i32
  %back = sext i32 %sm.v to i64
  %sm.o = icmp ne i64 %back, %p64
  %w0 = zext i32 %ua.v to i64
  store i64 %w0, ptr addrspace(1) %slot, align 8
  %f1 = zext i1 %ua.o to i64
  %f2 = zext i1 %us.o to i64
  %f3 = zext i1 %sm.o to i64
  %f12 = or i64 %f1, 0
  %m2 = shl i64 %f2, 1
  %m3 = shl i64 %f3, 2
  %o1 = or i64 %f12, %m2
  %o2 = or i64 %o1, %m3
  %o3 = or i64 %o2, 0
  store i64 %o3, ptr addrspace(1) %s1, align 8
  %w3 = sext i32 %sm.v to i64
  store i64 %w3, ptr addrspace(1) %s2, align 8
  ret void
}

declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.smul.with.overflow.i32(i32, i32)
