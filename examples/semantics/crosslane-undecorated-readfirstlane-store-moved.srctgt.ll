; CLASS: crosslane
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; `llvm.amdgcn.readfirstlane` declared with no attributes is convergent and
; accesses no memory by its definition (IntrinsicsAMDGPU.td: IntrNoMem), so a
; store moved across it is no change (model/llvm/src/to_ir/crosslane.rs);
; the reference and a target that declares it as opt prints it
; (`convergent memory(none)`) agree on that. (Were the reference's call taken
; as one that may access memory, the moved store would be reported.) The
; explicit engine alone is inconclusive: `%out + 64 + tid` is pointer
; arithmetic its domain analysis does not invert.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane(i32) ; only: src
declare i32 @llvm.amdgcn.readfirstlane(i32) #0 ; only: tgt

define void @src(i32 %x, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %x, ptr addrspace(1) %p, align 4
  %s = call i32 @llvm.amdgcn.readfirstlane(i32 %x)
  %q = getelementptr i32, ptr addrspace(1) %out, i32 64
  %r = getelementptr i32, ptr addrspace(1) %q, i32 %tid
  store i32 %s, ptr addrspace(1) %r, align 4
  ret void
}

define void @tgt(i32 %x, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %s = call i32 @llvm.amdgcn.readfirstlane(i32 %x)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %x, ptr addrspace(1) %p, align 4
  %q = getelementptr i32, ptr addrspace(1) %out, i32 64
  %r = getelementptr i32, ptr addrspace(1) %q, i32 %tid
  store i32 %s, ptr addrspace(1) %r, align 4
  ret void
}

attributes #0 = { convergent nounwind memory(none) } ; only: tgt
