; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; review3 H17 (cases sp-1/sp-2): `*out = s` of a struct, as clang -O0
; emits it (one memcpy, one 8-byte chunk), against opt-19 -passes=sroa's
; per-field 4-byte stores. Non-atomic stores are compared by the bytes each
; segment between synchronisation points leaves (semantics.md, class c):
; the same bytes, the same values. (The explicit engine's domains of x, y
; are inexact; the product searches every value.)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.S = type { i32, i32 }
@g = addrspace(1) global %struct.S zeroinitializer, align 8
declare void @llvm.memcpy.p1.p0.i64(ptr addrspace(1), ptr, i64, i1)

define void @src(i32 %x, i32 %y) {
entry:
  %s = alloca %struct.S, align 8
  store i32 %x, ptr %s, align 8
  %f = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 1
  store i32 %y, ptr %f, align 4
  call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 8 @g, ptr align 8 %s, i64 8, i1 false)
  ret void
}

define void @tgt(i32 %x, i32 %y) {
entry:
  store i32 %x, ptr addrspace(1) @g, align 8
  store i32 %y, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @g, i64 4), align 4
  ret void
}
