; CLASS: g
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of off are
;  inexact, class m; the other engines prove or preserve it.)
; On amdgcn (`p3:32:32`) InstCombine narrows a shared-memory GEP index to
; i32: addresses are computed in the pointer width of their address space,
; so the two accesses are one location.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8"
target triple = "amdgcn-amd-amdhsa"
@lds = addrspace(3) global [256 x i32] undef
declare i32 @llvm.amdgcn.workitem.id.x()

define void @src(i64 %off) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t = zext i32 %tid to i64
  %i = add i64 %t, %off
  %p = getelementptr i32, ptr addrspace(3) @lds, i64 %i
  store i32 %tid, ptr addrspace(3) %p
  ret void
}

define void @tgt(i64 %off) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %o = trunc i64 %off to i32
  %i = add i32 %tid, %o
  %p = getelementptr i32, ptr addrspace(3) @lds, i32 %i
  store i32 %tid, ptr addrspace(3) %p
  ret void
}
