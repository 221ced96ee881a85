; CLASS: h
; EXPECT: violated
; The known-unsafe variant of h-parameter-into-a-private-slot: the target
; reads the element after the one the reference reads, so the ballot may
; vote on another value. The test of fresh objects must not hide it.
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
  %c = icmp sgt i32 %v, 0
  %z = zext i1 %c to i32
  %b = call i64 @__ballot(i32 %z)
  ret void
}

define void @tgt(ptr addrspace(1) %in.coerce, i64 %k) {
entry:
  %0 = ptrtoint ptr addrspace(1) %in.coerce to i64
  %1 = inttoptr i64 %0 to ptr
  %k1 = add i64 %k, 1
  %p = getelementptr inbounds i32, ptr %1, i64 %k1
  %v = load i32, ptr %p, align 4
  %c = icmp sgt i32 %v, 0
  %z = zext i1 %c to i32
  %b = call i64 @__ballot(i32 %z)
  ret void
}
