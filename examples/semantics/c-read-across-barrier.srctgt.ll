; CLASS: c
; EXPECT: violated
; Thread 0 writes @g before the first barrier, thread 1 reads it between
; the first and the second, thread 2 overwrites it after the second; the
; target reads after the third barrier, so thread 1 sees thread 2's value
; (the red-team case of a used load moved past a whole phase): the free
; values of the two phases differ, with no race in either program.
@g = addrspace(3) global i32 undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0() #0
declare void @op() #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  %is1 = icmp eq i32 %tid, 1
  %is2 = icmp eq i32 %tid, 2
  br i1 %is0, label %w0, label %b1
w0:
  store i32 1, ptr addrspace(3) @g
  br label %b1
b1:
  call void @llvm.nvvm.barrier0()
  br i1 %is1, label %r1, label %b2
r1:
  %v1 = load i32, ptr addrspace(3) @g
  br label %b2
b2:
  %v = phi i32 [ %v1, %r1 ], [ 0, %b1 ]
  call void @llvm.nvvm.barrier0()
  br i1 %is2, label %w2, label %b3
w2:
  store i32 2, ptr addrspace(3) @g
  br label %b3
b3:
  call void @llvm.nvvm.barrier0()
  %z = icmp eq i32 %v, 1
  br i1 %z, label %then, label %exit
then:
  call void @op()
  br label %exit
exit:
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  %is1 = icmp eq i32 %tid, 1
  %is2 = icmp eq i32 %tid, 2
  br i1 %is0, label %w0, label %b1
w0:
  store i32 1, ptr addrspace(3) @g
  br label %b1
b1:
  call void @llvm.nvvm.barrier0()
  br label %b2
b2:
  call void @llvm.nvvm.barrier0()
  br i1 %is2, label %w2, label %b3
w2:
  store i32 2, ptr addrspace(3) @g
  br label %b3
b3:
  call void @llvm.nvvm.barrier0()
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

attributes #0 = { convergent nounwind }
