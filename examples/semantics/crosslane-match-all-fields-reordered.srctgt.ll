; CLASS: crosslane
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; `llvm.nvvm.match.all.sync.i32p` (`__match_all_sync`) returns `{ i32, i1 }`:
; the mask where every lane passed the same value, and that predicate. The
; target reads the two fields in the other order and merges a duplicated
; `extractvalue` (as EarlyCSE does): the same operation, the same values.
; The explicit engine tries the mask 0 and 1 only (an observed value, an
; inexact domain) and says so; the product proves it.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32, i32) convergent

define void @src(ptr addrspace(1) %out, i32 %key) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %half = lshr i32 %tid, 1
  %v = add i32 %key, %half
  %r = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %v)
  %m = extractvalue { i32, i1 } %r, 0
  %ok = extractvalue { i32, i1 } %r, 1
  %m2 = extractvalue { i32, i1 } %r, 0
  %s = add i32 %m, %m2
  %w = select i1 %ok, i32 %s, i32 7
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %w, ptr addrspace(1) %p, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out, i32 %key) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %half = lshr i32 %tid, 1
  %v = add i32 %key, %half
  %r = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %v)
  %ok = extractvalue { i32, i1 } %r, 1
  %m = extractvalue { i32, i1 } %r, 0
  %s = shl i32 %m, 1
  %w = select i1 %ok, i32 %s, i32 7
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %w, ptr addrspace(1) %p, align 4
  ret void
}
