; CLASS: crosslane
; EXPECT: violated
; The predicate of `llvm.nvvm.match.all.sync.i32p` is not always true: the
; lanes' values differ where `tid` differs, so a target that folds it to
; `true` stores the mask (0 then) where the reference stores 7.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32, i32) convergent

define void @src(ptr addrspace(1) %out, i32 %key) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = add i32 %key, %tid
  %r = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %v)
  %m = extractvalue { i32, i1 } %r, 0
  %ok = extractvalue { i32, i1 } %r, 1
  %w = select i1 %ok, i32 %m, i32 7
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %w, ptr addrspace(1) %p, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out, i32 %key) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = add i32 %key, %tid
  %r = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %v)
  %m = extractvalue { i32, i1 } %r, 0
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %m, ptr addrspace(1) %p, align 4
  ret void
}
