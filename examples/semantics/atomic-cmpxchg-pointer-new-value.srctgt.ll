; CLASS: atomic
; EXPECT: violated
; EXPECT-MESSAGE: cmpxchg
; A `cmpxchg` of pointers (a lock-free list head): the target installs
; another node. Pointers are exchanged as their addresses.
target triple = "nvptx64-nvidia-cuda"
@head = addrspace(1) global ptr addrspace(1) null
@nodes = addrspace(1) global [64 x i32] zeroinitializer

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(ptr addrspace(1) %seen) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %mine = getelementptr [64 x i32], ptr addrspace(1) @nodes, i32 0, i32 %tid
  %pair = cmpxchg ptr addrspace(1) @head, ptr addrspace(1) null, ptr addrspace(1) %mine monotonic monotonic, align 8
  %ok = extractvalue { ptr addrspace(1), i1 } %pair, 1
  %won = zext i1 %ok to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %won)
  %q = getelementptr i32, ptr addrspace(1) %seen, i32 %tid
  store i32 %who, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %seen) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %mine = getelementptr [64 x i32], ptr addrspace(1) @nodes, i32 0, i32 0
  %pair = cmpxchg ptr addrspace(1) @head, ptr addrspace(1) null, ptr addrspace(1) %mine monotonic monotonic, align 8
  %ok = extractvalue { ptr addrspace(1), i1 } %pair, 1
  %won = zext i1 %ok to i32
  %who = call i32 @__ballot_sync(i32 -1, i32 %won)
  %q = getelementptr i32, ptr addrspace(1) %seen, i32 %tid
  store i32 %who, ptr addrspace(1) %q, align 4
  ret void
}
