; Red-team case, the target of ph-a.ll.
@g = addrspace(3) global i32 0
declare void @op() convergent
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier() convergent

define void @k() {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %is0 = icmp eq i32 %tid, 0
  %is1 = icmp eq i32 %tid, 1
  %is2 = icmp eq i32 %tid, 2
  br i1 %is0, label %w0, label %b1
w0:
  store i32 1, ptr addrspace(3) @g
  br label %b1
b1:
  call void @llvm.amdgcn.s.barrier()
  br label %b2
b2:
  call void @llvm.amdgcn.s.barrier()
  br i1 %is2, label %w2, label %b3
w2:
  store i32 2, ptr addrspace(3) @g
  br label %b3
b3:
  call void @llvm.amdgcn.s.barrier()
  br i1 %is1, label %r3, label %j
r3:
  %v1 = load i32, ptr addrspace(3) @g
  br label %j
j:
  %v = phi i32 [ %v1, %r3 ], [ 0, %b3 ]
  %z = icmp eq i32 %v, 1
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}
