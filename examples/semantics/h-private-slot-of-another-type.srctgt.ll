; CLASS: h
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of %slot, out are
;  inexact, class m; the other engines prove or preserve it.)
; HIP's -O0 code keeps a pointer argument in a private slot and reads it
; back through a generic pointer of another type; InferAddressSpaces and
; SROA remove the slot. Private memory is thread state, never an event.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8"
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()

define void @src(ptr addrspace(1) %out) {
entry:
  %slot = alloca i64, align 8, addrspace(5)
  %generic = addrspacecast ptr addrspace(5) %slot to ptr
  store ptr addrspace(1) %out, ptr %generic, align 8
  %p = load ptr, ptr %generic, align 8
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr %p, i32 %tid
  store i32 %tid, ptr %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %tid, ptr addrspace(1) %q, align 4
  ret void
}
