; CLASS: crosslane
; EXPECT: violated
; `llvm.nvvm.bar.warp.sync` declared with no attributes is still convergent
; (IntrinsicsNVVM.td): sinking it into a branch on the thread index changes
; which lanes meet at it.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.bar.warp.sync(i32)

define void @src(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %then, label %exit
then:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 1, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %then, label %exit
then:
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 1, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}
