; CLASS: j
; EXPECT: violated
; EXPECT-MESSAGE: race
; The barrier between a write and another thread's read of the same slot
; is removed: the target races.
@buf = addrspace(3) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0() #0

define i32 @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %next = add i32 %tid, 1
  %j = urem i32 %next, %n
  %q = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %j
  %v = load i32, ptr addrspace(3) %q
  ret i32 %v
}

define i32 @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %p = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %next = add i32 %tid, 1
  %j = urem i32 %next, %n
  %q = getelementptr [64 x i32], ptr addrspace(3) @buf, i32 0, i32 %j
  %v = load i32, ptr addrspace(3) %q
  ret i32 %v
}

attributes #0 = { convergent nounwind }
