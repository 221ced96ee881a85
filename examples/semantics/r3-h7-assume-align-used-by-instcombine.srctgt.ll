; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (`--engine explicit`: inconclusive, its domains of the parameter are inexact, class m.)
; opt-19 `instcombine` folds `ptrtoint(p) & 15` to 0 using the reference's
; `assume [ "align"(%p, 16) ]` (clang's `__builtin_assume_aligned`;
; review3 H7): where p is misaligned the reference is undefined.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i64 0
declare void @llvm.assume(i1)

define void @src(ptr addrspace(1) %p) {
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(1) %p, i64 16) ]
  %i = ptrtoint ptr addrspace(1) %p to i64
  %m = and i64 %i, 15
  store i64 %m, ptr addrspace(1) @out
  ret void
}

define void @tgt(ptr addrspace(1) %p) {
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(1) %p, i64 16) ]
  store i64 0, ptr addrspace(1) @out, align 8
  ret void
}
