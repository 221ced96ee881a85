; CLASS: e
; EXPECT: violated
; A target that adds `nuw` to a getelementptr whose index may be negative
; (LangRef: the index times 4, as an unsigned 64-bit value, may not wrap;
; where it does the address is poison and the load through it undefined
; behaviour). Was proved: address arithmetic's flags were not modelled
; (model/llvm/src/to_ir/gep_flags.rs).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0

define amdgpu_kernel void @src(ptr addrspace(1) %p, i64 %i) {
entry:
  %q = getelementptr  i32, ptr addrspace(1) %p, i64 %i
  %v = load i32, ptr addrspace(1) %q
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(ptr addrspace(1) %p, i64 %i) {
entry:
  %q = getelementptr nuw i32, ptr addrspace(1) %p, i64 %i
  %v = load i32, ptr addrspace(1) %q
  store i32 %v, ptr addrspace(1) @out
  ret void
}
