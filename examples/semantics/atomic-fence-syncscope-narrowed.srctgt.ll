; CLASS: atomic
; EXPECT: inconclusive
; EXPECT-MESSAGE: scope narrowed
; A `fence seq_cst` narrowed to syncscope("wavefront") on AMDGPU (review2
; G4): it no longer orders accesses for the other waves of the group.
; Inconclusive, as a weakened ordering is (checker/src/llvm/orderings.rs).
target triple = "amdgcn-amd-amdhsa"
@g = addrspace(1) global i32 0

define amdgpu_kernel void @src(i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) @g, align 4
  fence seq_cst
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) @g, align 4
  fence syncscope("wavefront") seq_cst
  ret void
}
