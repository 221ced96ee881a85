; CLASS: f
; EXPECT: preserved
; `amdgpu-flat-work-group-size`="1,256": a launch of more than 256
; threads is undefined, so `workitem.id.x < 256` folded to true changes
; nothing.
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src() #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %c = icmp ult i32 %t, 256
  br i1 %c, label %then, label %end
then:
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  br label %end
end:
  ret void
}

define void @tgt() #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
