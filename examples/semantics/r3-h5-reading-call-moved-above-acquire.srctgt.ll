; CLASS: atomic
; EXPECT: violated
; EXPECT-explicit: inconclusive
; Thread 0 stores x to @data, then releases @flag; the others acquire
; @flag, then call `rd()` (`memory(read)`). The target calls rd() before
; the acquire load (review3 H5): where the acquire synchronises, the
; reference's rd must see @data = x, the target's may not. The memory
; version a reading call reads grows at an acquire as at a write
; (`model/llvm/src/to_ir/memory_version.rs`, `acquires`).
; (`--engine explicit`: inconclusive, inexact domains of x, class m.)
target triple = "amdgcn-amd-amdhsa"
@data = addrspace(1) global i32 0, align 4
@flag = addrspace(1) global i32 0, align 4
@out = addrspace(1) global [1024 x i32] zeroinitializer, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @rd() nounwind willreturn memory(read)

define amdgpu_kernel void @src(i32 %x) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %z = icmp eq i32 %t, 0
  br i1 %z, label %P, label %C
P:
  store i32 %x, ptr addrspace(1) @data, align 4
  store atomic i32 1, ptr addrspace(1) @flag syncscope("agent") release, align 4
  br label %X
C:
  %f = load atomic i32, ptr addrspace(1) @flag syncscope("agent") acquire, align 4
  %r = call i32 @rd()
  %o = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %s = add i32 %r, %f
  store i32 %s, ptr addrspace(1) %o, align 4
  br label %X
X:
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %z = icmp eq i32 %t, 0
  br i1 %z, label %P, label %C
P:
  store i32 %x, ptr addrspace(1) @data, align 4
  store atomic i32 1, ptr addrspace(1) @flag syncscope("agent") release, align 4
  br label %X
C:
  %r = call i32 @rd()
  %f = load atomic i32, ptr addrspace(1) @flag syncscope("agent") acquire, align 4
  %o = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %s = add i32 %r, %f
  store i32 %s, ptr addrspace(1) %o, align 4
  br label %X
X:
  ret void
}
