; CLASS: int
; EXPECT: violated
; EXPECT-MESSAGE: store @out
; `__ffs(m)` is `m == 0 ? 0 : cttz(m, true) + 1` (clang's lowering of
; `__builtin_ffs`); a target that drops the test stores 33 (or poison)
; where the source stores 0. The mask is a ballot's result, a free value,
; so the scenario with m = 0 exists.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %m = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 true)
  %z = icmp eq i32 %m, 0
  %t = call i32 @llvm.cttz.i32(i32 %m, i1 true)
  %t1 = add i32 %t, 1
  %f = select i1 %z, i32 0, i32 %t1
  store i32 %f, ptr addrspace(1) %slot
  ret void
}

define void @tgt() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %m = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 true)
  %t = call i32 @llvm.cttz.i32(i32 %m, i1 true)
  %t1 = add i32 %t, 1
  store i32 %t1, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.cttz.i32(i32, i1 immarg)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #0
attributes #0 = { convergent nounwind }
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
