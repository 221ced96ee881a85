; CLASS: c
; EXPECT: violated
; A private slot passed (as a flat pointer) to a function the module
; defines, which passes it on to an external call that may write its
; argument (memory(argmem: write)): in @helper the pointer is a parameter,
; an address of unknown origin, so the clobber covers its object in private
; memory too and the value stored may not be forwarded across the call of
; @helper (issue 20; before the F4 fix the clobber covered only global
; memory and the pair was preserved).
@out = addrspace(1) global i32 0
declare void @f(ptr) memory(argmem: write)
define void @helper(ptr %p) {
entry:
  call void @f(ptr %p)
  ret void
}
define amdgpu_kernel void @src() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %fa = addrspacecast ptr addrspace(5) %a to ptr
  store i32 1, ptr addrspace(5) %a
  call void @helper(ptr %fa)
  %v = load i32, ptr addrspace(5) %a
  store i32 %v, ptr addrspace(1) @out
  ret void
}
define amdgpu_kernel void @tgt() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  %fa = addrspacecast ptr addrspace(5) %a to ptr
  store i32 1, ptr addrspace(5) %a
  call void @helper(ptr %fa)
  store i32 1, ptr addrspace(1) @out
  ret void
}
