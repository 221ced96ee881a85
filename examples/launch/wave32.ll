; wave.ll with the wave size taken as 32.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %w = call i32 @llvm.amdgcn.wavefrontsize()
  %m = sub i32 %w, 1
  %lane = and i32 %t, 31
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %vote, label %end
vote:
  %b = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %t)
  store i32 %b, ptr addrspace(1) %out
  br label %end
end:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.wavefrontsize()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32) convergent
