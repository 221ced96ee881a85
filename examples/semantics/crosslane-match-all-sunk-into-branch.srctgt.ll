; CLASS: crosslane
; EXPECT: violated
; EXPECT-MESSAGE: llvm.nvvm.match.all.sync.i64p
; `llvm.nvvm.match.all.sync.i64p` declared with no attributes is still
; convergent (IntrinsicsNVVM.td): sinking it into the branch that uses its
; predicate changes which lanes compare their values.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32, i64)

define void @src(ptr addrspace(1) %out, i64 %key) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %v = and i64 %t64, 1
  %r = call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 -1, i64 %v)
  %c = icmp eq i64 %v, 0
  br i1 %c, label %then, label %exit
then:
  %ok = extractvalue { i32, i1 } %r, 1
  %w = zext i1 %ok to i32
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %w, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}

define void @tgt(ptr addrspace(1) %out, i64 %key) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %v = and i64 %t64, 1
  %c = icmp eq i64 %v, 0
  br i1 %c, label %then, label %exit
then:
  %r = call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 -1, i64 %v)
  %ok = extractvalue { i32, i1 } %r, 1
  %w = zext i1 %ok to i32
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %w, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}
