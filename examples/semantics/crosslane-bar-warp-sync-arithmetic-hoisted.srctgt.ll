; CLASS: crosslane
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; Arithmetic moved across `llvm.nvvm.bar.warp.sync` (and the thread index
; read before it) is no change: the warp operation keeps its mask, its
; place among the loads and stores, and the lanes that meet at it.
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
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  br i1 %c, label %then, label %exit
then:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 1, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}
