; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; review3 H17 (cases sl-1/sl-2): `S s = *src` copied by a memcpy (one
; 8-byte read of @src), both fields added, against opt-19 -passes=sroa's
; two 4-byte loads: free memory is named per byte, so both read the same
; bytes (semantics.md, class c).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.S = type { i32, i32 }
@gs = addrspace(1) global %struct.S zeroinitializer, align 8
@out = addrspace(1) global i32 0
declare void @llvm.memcpy.p0.p1.i64(ptr, ptr addrspace(1), i64, i1)

define void @src() {
entry:
  %s = alloca %struct.S, align 8
  call void @llvm.memcpy.p0.p1.i64(ptr align 8 %s, ptr addrspace(1) align 8 @gs, i64 8, i1 false)
  %f = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 1
  %y = load i32, ptr %f, align 4
  %x = load i32, ptr %s, align 8
  %z = add i32 %x, %y
  store i32 %z, ptr addrspace(1) @out, align 4
  ret void
}

define void @tgt() {
entry:
  %a = load i32, ptr addrspace(1) @gs, align 8
  %b = load i32, ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @gs, i64 4), align 4
  %z = add i32 %a, %b
  store i32 %z, ptr addrspace(1) @out, align 4
  ret void
}
