; CLASS: e
; EXPECT: preserved
; opt-19 -passes=instcombine's own output: it adds `inbounds` where the
; index is a constant inside the alloca (%b), and leaves it off the
; variable indices; the sext of an i32 index (clang's idxprom) cannot wrap
; when multiplied, so such an access gets no condition.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global [4 x i32] zeroinitializer

define amdgpu_kernel void @src(ptr addrspace(1) %p, i64 %i, i32 %j) {
entry:
  %q = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i
  %r = getelementptr i8, ptr addrspace(1) %q, i64 4
  store i32 1, ptr addrspace(1) %r
  %a = alloca [4 x i32], addrspace(5)
  %b = getelementptr [4 x i32], ptr addrspace(5) %a, i32 0, i32 2
  store i32 %j, ptr addrspace(5) %b
  %c = getelementptr [4 x i32], ptr addrspace(5) %a, i32 0, i32 %j
  %v = load i32, ptr addrspace(5) %c
  %g = getelementptr [4 x i32], ptr addrspace(1) @out, i64 0, i64 %i
  store i32 %v, ptr addrspace(1) %g
  ret void
}

define amdgpu_kernel void @tgt(ptr addrspace(1) %p, i64 %i, i32 %j) {
entry:
  %q = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i
  %r = getelementptr i8, ptr addrspace(1) %q, i64 4
  store i32 1, ptr addrspace(1) %r, align 4
  %a = alloca [4 x i32], align 4, addrspace(5)
  %b = getelementptr inbounds i8, ptr addrspace(5) %a, i32 8
  store i32 %j, ptr addrspace(5) %b, align 4
  %c = getelementptr [4 x i32], ptr addrspace(5) %a, i32 0, i32 %j
  %v = load i32, ptr addrspace(5) %c, align 4
  %g = getelementptr [4 x i32], ptr addrspace(1) @out, i64 0, i64 %i
  store i32 %v, ptr addrspace(1) %g, align 4
  ret void
}
