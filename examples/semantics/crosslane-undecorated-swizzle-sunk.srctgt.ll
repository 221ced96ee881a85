; CLASS: crosslane
; EXPECT: violated
; EXPECT-MESSAGE: llvm.amdgcn.ds.swizzle
; `llvm.amdgcn.ds.swizzle` declared with no attributes, as LLVM's own tests
; declare it: LLVM makes it convergent by its definition (IntrinsicsAMDGPU.td),
; so moving it under a divergent branch changes which lanes take part
; (model/llvm/src/to_ir/crosslane.rs). Was "outside the model" (inconclusive)
; until 2026-11-28.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)

define void @src(i32 %x, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %s = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 31)
  %c = icmp ult i32 %tid, 2
  br i1 %c, label %then, label %exit
then:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}

define void @tgt(i32 %x, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %tid, 2
  br i1 %c, label %then, label %exit
then:
  %s = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 31)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}
