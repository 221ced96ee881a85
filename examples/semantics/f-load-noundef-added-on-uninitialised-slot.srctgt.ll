; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: undefined behaviour
; The target adds `!noundef` to a load of an alloca that is stored only
; where %c is true: where it is false the load reads undef, and with
; `!noundef` that is undefined behaviour (LangRef, "load"; review2 G10b).
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0

define amdgpu_kernel void @src(i1 %c) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  br i1 %c, label %s, label %j
s:
  store i32 5, ptr addrspace(5) %a
  br label %j
j:
  %v = load i32, ptr addrspace(5) %a
  %w = freeze i32 %v
  store i32 %w, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt(i1 %c) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  br i1 %c, label %s, label %j
s:
  store i32 5, ptr addrspace(5) %a
  br label %j
j:
  %v = load i32, ptr addrspace(5) %a, !noundef !0
  %w = freeze i32 %v
  store i32 %w, ptr addrspace(1) @out
  ret void
}
!0 = !{}
