; The target of loads-src.ll: the dead load dropped (allowed), slot 0 read before the barrier (a change of behaviour; unused, a race), a read moved before the write it should see.
declare void @op() convergent
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier() convergent

define void @dead_load(ptr addrspace(3) %p, i32 %c) {
entry:
  %z = icmp eq i32 %c, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}

define void @late_read(ptr addrspace(3) %buf) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  store i32 1, ptr addrspace(3) %slot
  %first = load i32, ptr addrspace(3) %buf
  call void @llvm.amdgcn.s.barrier()
  %z = icmp eq i32 %first, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}

define void @read_own_write(ptr addrspace(3) %buf) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  %back = load i32, ptr addrspace(3) %slot
  store i32 1, ptr addrspace(3) %slot
  %z = icmp eq i32 %back, 0
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}

define void @late_peek(ptr addrspace(3) %buf) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr i32, ptr addrspace(3) %buf, i32 %tid
  store i32 1, ptr addrspace(3) %slot
  %first = load i32, ptr addrspace(3) %buf
  call void @llvm.amdgcn.s.barrier()
  call void @op()
  ret void
}
