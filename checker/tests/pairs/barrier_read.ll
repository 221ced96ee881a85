; A thread stores tid+1 to shared memory, waits at a barrier and copies
; element 0 out. The simulation refuses it (loads and barriers in one
; function), so under --engine smt the symbolic product decides it.
target triple = "nvptx64-nvidia-cuda"
@s = addrspace(3) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
define void @k(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = add i32 %t, 1
  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %a, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %v = load i32, ptr addrspace(3) @s
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}
