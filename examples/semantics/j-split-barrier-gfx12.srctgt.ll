; CLASS: j
; EXPECT: inconclusive
; EXPECT-MESSAGE: gfx12's split barrier
; gfx12's split workgroup barrier (`s.barrier.signal` then `s.barrier.wait`)
; between a store of each thread's element and a load of its neighbour's;
; the target loads the neighbour's element before the barrier: a race, and
; a stale value. As two plain convergent calls the pair left the reference
; racing too, which excused the target's race: `preserved` (red-team review
; 2026-11-29, F7). A thread's accesses between its signal and its wait may
; run beside another thread's accesses after its wait, so neither call alone
; is the model's barrier: the split barrier is outside the model
; (model/llvm/src/to_ir/builtins.rs) until the pair is modelled.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier.signal(i32) #0
declare void @llvm.amdgcn.s.barrier.wait(i16) #0
declare void @f(i32)

define amdgpu_kernel void @src(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 %tid, ptr addrspace(1) %a, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier.signal(i32 -1)
  call void @llvm.amdgcn.s.barrier.wait(i16 -1)
  fence syncscope("workgroup") acquire
  %o = xor i32 %tid, 1
  %b = getelementptr i32, ptr addrspace(1) %p, i32 %o
  %v = load i32, ptr addrspace(1) %b, align 4
  call void @f(i32 %v)
  ret void
}

define amdgpu_kernel void @tgt(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %o = xor i32 %tid, 1
  %b = getelementptr i32, ptr addrspace(1) %p, i32 %o
  %v = load i32, ptr addrspace(1) %b, align 4
  store i32 %tid, ptr addrspace(1) %a, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier.signal(i32 -1)
  call void @llvm.amdgcn.s.barrier.wait(i16 -1)
  fence syncscope("workgroup") acquire
  call void @f(i32 %v)
  ret void
}

attributes #0 = { convergent nounwind }
