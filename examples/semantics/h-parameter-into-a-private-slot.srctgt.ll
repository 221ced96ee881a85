; CLASS: h
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of %in, in.coerce, k are
;  inexact, class m; the other engines prove or preserve it.)
; HIP's -O0 code keeps a pointer argument in a private slot of another type
; (`ptr` written with a `ptr addrspace(1)`, so the slot stays in memory)
; and reads the argument back through it; SROA's target uses the argument.
; An alloca is a fresh object: no parameter points into it, so an access
; through the argument never reads the slot's bytes (issue 20 class h: the
; product aimed `%in.coerce + 4*%k` into the slot, where the reference read
; the stored pointer's bytes and the target a free value).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8"
target triple = "amdgcn-amd-amdhsa"
declare i64 @__ballot(i32) #0
attributes #0 = { convergent nounwind }

define void @src(ptr addrspace(1) %in.coerce, i64 %k) {
entry:
  %in = alloca ptr, align 8, addrspace(5)
  %in.ascast = addrspacecast ptr addrspace(5) %in to ptr
  store ptr addrspace(1) %in.coerce, ptr %in.ascast, align 8
  %in1 = load ptr, ptr %in.ascast, align 8
  %p = getelementptr inbounds i32, ptr %in1, i64 %k
  %v = load i32, ptr %p, align 4
  %b = call i64 @__ballot(i32 %v)
  ret void
}

define void @tgt(ptr addrspace(1) %in.coerce, i64 %k) {
entry:
  %0 = ptrtoint ptr addrspace(1) %in.coerce to i64
  %1 = inttoptr i64 %0 to ptr
  %p = getelementptr inbounds i32, ptr %1, i64 %k
  %v = load i32, ptr %p, align 4
  %b = call i64 @__ballot(i32 %v)
  ret void
}
