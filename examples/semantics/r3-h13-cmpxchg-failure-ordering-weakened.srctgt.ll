; CLASS: atomic
; EXPECT: inconclusive
; EXPECT-MESSAGE: an atomic ordering weakened
; A `cmpxchg`'s failure ordering weakened, `acq_rel acquire` to `acq_rel
; monotonic` (review3 H13; LangRef cmpxchg: on failure it is a load with
; the failure ordering): the following load of @data may read a stale
; value; the model does not observe orderings, so the step is inconclusive.
target triple = "amdgcn-amd-amdhsa"
@flag = addrspace(1) global i32 0
@data = addrspace(1) global i32 0
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @src() {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %r = cmpxchg ptr addrspace(1) @flag, i32 1, i32 2 syncscope("agent") acq_rel acquire
  %ok = extractvalue { i32, i1 } %r, 1
  %v = load i32, ptr addrspace(1) @data
  %z = zext i1 %ok to i32
  %s = add i32 %v, %z
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %s, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @tgt() {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %r = cmpxchg ptr addrspace(1) @flag, i32 1, i32 2 syncscope("agent") acq_rel monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  %v = load i32, ptr addrspace(1) @data
  %z = zext i1 %ok to i32
  %s = add i32 %v, %z
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %s, ptr addrspace(1) %p
  ret void
}
