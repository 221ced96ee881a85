; CLASS: g
; EXPECT: violated
; EXPECT-explicit: inconclusive
; The same narrowing in a 64-bit address space is wrong: an offset of 2^31
; or more lands elsewhere. The explicit engine alone tries the values its
; domains give (0 and 1 for `%off`), lists `off` among the inexact
; domains and finds nothing, so it answers inconclusive naming them
; (class m); the symbolic product tries every value, and the default
; engine sends a stage with inexact domains to it.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8"
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()

define void @src(ptr addrspace(1) %out, i64 %off) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t = zext i32 %tid to i64
  %i = add i64 %t, %off
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %tid, ptr addrspace(1) %p
  ret void
}

define void @tgt(ptr addrspace(1) %out, i64 %off) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %o = trunc i64 %off to i32
  %i = add i32 %tid, %o
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %tid, ptr addrspace(1) %p
  ret void
}
