; A load whose value nothing uses is not an observable event (docs/src/soundness.md, "Loads"): see checker/tests/loads.rs.
declare void @op() convergent
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier() convergent

; A load whose value nothing uses, before a branch.
define void @dead_load(ptr addrspace(3) %p, i32 %c) {
entry:
  %v = load i32, ptr addrspace(3) %p
  %z = icmp eq i32 %c, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}

; Each thread writes its own slot, waits at the barrier, then reads slot 0.
define void @late_read(ptr addrspace(3) %buf) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  store i32 1, ptr addrspace(3) %slot
  call void @llvm.amdgcn.s.barrier()
  %first = load i32, ptr addrspace(3) %buf
  %z = icmp eq i32 %first, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}

; The thread reads back what it wrote.
define void @read_own_write(ptr addrspace(3) %buf) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  store i32 1, ptr addrspace(3) %slot
  %back = load i32, ptr addrspace(3) %slot
  %z = icmp eq i32 %back, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}

; The same, and the value read from slot 0 is not used.
define void @late_peek(ptr addrspace(3) %buf) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  store i32 1, ptr addrspace(3) %slot
  call void @llvm.amdgcn.s.barrier()
  %first = load i32, ptr addrspace(3) %buf
  call void @op()
  ret void
}
