; Red-team case: rl-a.ll with a load of element tid ^ 1 added, unused: a race with thread tid ^ 1's store the reference does not have (checker/tests/loads.rs).
declare void @f(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @k(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 1, ptr addrspace(1) %a, align 4
  call void @f(i32 0)
  %o = xor i32 %tid, 1
  %b = getelementptr i32, ptr addrspace(1) %p, i32 %o
  %l = load i32, ptr addrspace(1) %b, align 4
  ret void
}
