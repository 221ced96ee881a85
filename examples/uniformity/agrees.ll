; Values whose uniformity LLVM gets right, each for a reason the model
; must follow (convcheck uniformity reports no finding, exit 0):
;
; - @temporal: %count is uniform inside the loop (threads in one iteration
;   agree), but threads leave it in different iterations, so its use
;   %after outside the loop is divergent (temporal divergence), which LLVM
;   says; the phi %last in the exit block too.
; - @rules: a kernel's arguments and `llvm.amdgcn.readfirstlane` are
;   uniform whatever the thread index; `llvm.amdgcn.workgroup.id.x` too; a
;   load through a uniform address of global memory is uniform.
; - @device: a non-kernel function's arguments are divergent unless
;   `inreg`.

define amdgpu_kernel void @temporal(i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop

loop:
  %count = phi i32 [ 0, %entry ], [ %count.next, %loop ]
  %count.next = add i32 %count, 1
  %stop = icmp uge i32 %count.next, %tid
  br i1 %stop, label %exit, label %loop

exit:
  %last = phi i32 [ %count, %loop ]
  %after = add i32 %count, %n
  ret void
}

define amdgpu_kernel void @rules(i32 %n, ptr addrspace(1) %buf) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %first = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %tid)
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %slot = getelementptr i32, ptr addrspace(1) %buf, i32 %n
  %shared = load i32, ptr addrspace(1) %slot
  %mixed = add i32 %first, %shared
  %big = icmp ugt i32 %mixed, %group
  br i1 %big, label %then, label %end

then:
  br label %end

end:
  %r = phi i32 [ 1, %then ], [ 2, %entry ]
  ret void
}

define void @device(i32 %x, i32 inreg %y) {
entry:
  %sx = add i32 %x, 1
  %sy = add i32 %y, 1
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.workgroup.id.x()
