; Red-team case: each thread stores to its own element (reference); rl-b.ll adds a load of the next thread's element, unused, which races with that thread's store. The simulation proved this pair under --engine smt before its hazard condition (issue 22, checker/tests/loads.rs).
declare void @f(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @k(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 1, ptr addrspace(1) %a, align 4
  call void @f(i32 0)
  ret void
}
