; barrier_read.ll with `add %t, 1` written `sub %t, -1`.
target triple = "nvptx64-nvidia-cuda"
@s = addrspace(3) global [64 x i32] undef
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
define void @k(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = sub i32 %t, -1
  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %a, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %v = load i32, ptr addrspace(3) @s
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}
