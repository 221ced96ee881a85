; CLASS: b
; EXPECT: violated
; The target narrows `amdgpu-flat-work-group-size` from 1,1024 to 1,64 and
; folds `tid < 64` to true with it (review3 H6): the reference may run in a
; group of 128, where thread 100 stores 0 and the target's stores 1. The
; group sizes tried are within the reference's bound, not the target's.
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @src() #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %b = icmp ult i32 %t, 64
  %z = zext i1 %b to i32
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %z, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @tgt() #1 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 1, ptr addrspace(1) %p
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
attributes #1 = { "amdgpu-flat-work-group-size"="1,64" }
