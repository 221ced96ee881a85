; CLASS: c
; EXPECT: proved
; (The two functions are one program up to the names of the copy loop's
; locals, which carry the call's line: the structural rule, with locals
; renamed in walk order (docs/src/proofs.md), proves the pair under every
; engine. Before it renamed them, `--engine explicit` alone was
; inconclusive: the domain of @in, whose bytes are stored, is inexact.)
; `llvm.memcpy` of a length that is a value is a loop of one byte per
; iteration, cut by the iteration bound (named in the report): the same
; copy in the target is preserved (Attributor's `calls_intrinsic`).
@in = addrspace(1) global [64 x i8] undef
@out = addrspace(1) global [64 x i8] undef
declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)

define void @src(i64 %n) {
entry:
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) @out, ptr addrspace(1) @in, i64 %n, i1 false)
  ret void
}

define void @tgt(i64 %n) {
entry:
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) @out, ptr addrspace(1) @in, i64 %n, i1 false)
  ret void
}
