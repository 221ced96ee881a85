; Red-team case: a dead load after the thread's own store; opt -passes=dce deletes it, which is no violation (checker/tests/loads.rs).
declare void @op() convergent
declare i32 @llvm.amdgcn.workitem.id.x()

define void @k(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 7, ptr addrspace(1) %slot
  %dead = load i32, ptr addrspace(1) %slot
  call void @op()
  ret void
}
