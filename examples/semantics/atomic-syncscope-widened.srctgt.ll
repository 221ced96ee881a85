; CLASS: atomic
; EXPECT: preserved
; The converse of atomic-fence-syncscope-narrowed: a fence
; syncscope("wavefront") widened to the system scope keeps every guarantee
; (a wider scope synchronises more threads): judged as before.
target triple = "amdgcn-amd-amdhsa"
@g = addrspace(1) global i32 0

define amdgpu_kernel void @src(i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) @g, align 4
  fence syncscope("wavefront") seq_cst
  ret void
}

define amdgpu_kernel void @tgt(i32 %x) {
entry:
  store i32 %x, ptr addrspace(1) @g, align 4
  fence seq_cst
  ret void
}
