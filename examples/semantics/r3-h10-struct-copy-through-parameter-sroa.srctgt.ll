; CLASS: d
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; Real SROA (opt-bisect 25 -> 26 of clang-19 CUDA -O0 under default<O2>,
; review3 H10): `S s = gs; s.b[k & 1] += 1; *out = s;` copies the struct
; in and out with llvm.memcpy. SROA deletes the -O0 slots of the
; parameters, so the struct alloca is named (and placed) otherwise, and
; a scenario's %0 landed inside it in the target only: memcpy-overlap
; undefined behaviour there. A parameter's pointee existed before the
; alloca ran: they never overlap (LangRef, pointer aliasing rules).
; Explicit: inconclusive, its domains of the copied bytes are inexact.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.S = type { i32, [3 x i32] }

@gs = dso_local addrspace(1) externally_initialized global %struct.S zeroinitializer, align 4
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg)

define dso_local void @src(ptr noundef %0, i32 noundef %1) {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca %struct.S, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %5, ptr align 4 addrspacecast (ptr addrspace(1) @gs to ptr), i64 16, i1 false)
  %6 = getelementptr inbounds %struct.S, ptr %5, i32 0, i32 1
  %7 = load i32, ptr %4, align 4
  %8 = and i32 %7, 1
  %9 = sext i32 %8 to i64
  %10 = getelementptr inbounds [3 x i32], ptr %6, i64 0, i64 %9
  %11 = load i32, ptr %10, align 4
  %12 = add nsw i32 %11, 1
  store i32 %12, ptr %10, align 4
  %13 = load ptr, ptr %3, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %13, ptr align 4 %5, i64 16, i1 false)
  ret void
}

define dso_local void @tgt(ptr noundef %0, i32 noundef %1) {
  %3 = alloca %struct.S, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %3, ptr align 4 addrspacecast (ptr addrspace(1) @gs to ptr), i64 16, i1 false)
  %4 = getelementptr inbounds %struct.S, ptr %3, i32 0, i32 1
  %5 = and i32 %1, 1
  %6 = sext i32 %5 to i64
  %7 = getelementptr inbounds [3 x i32], ptr %4, i64 0, i64 %6
  %8 = load i32, ptr %7, align 4
  %9 = add nsw i32 %8, 1
  store i32 %9, ptr %7, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %0, ptr align 4 %3, i64 16, i1 false)
  ret void
}
