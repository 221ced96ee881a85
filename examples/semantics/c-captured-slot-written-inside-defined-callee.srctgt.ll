; CLASS: c
; EXPECT: violated
; The address of a private slot is stored to a global (captured), then a
; function the module defines is called whose body calls an external
; function without memory attributes: that call may write the slot through
; the captured address, so the value stored may not be forwarded across
; the call of @helper (issue 20, review F2; before the fix the pair was
; preserved: capture is found per function, and @helper's clobbers name
; only its own captured allocas).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0
@gp = addrspace(1) global ptr addrspace(5) null
declare void @ext()

define void @helper() {
entry:
  call void @ext()
  ret void
}

define amdgpu_kernel void @src() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 1, ptr addrspace(5) %a
  call void @helper()
  %v = load i32, ptr addrspace(5) %a
  store i32 %v, ptr addrspace(1) @out
  ret void
}

define amdgpu_kernel void @tgt() {
entry:
  %a = alloca i32, align 4, addrspace(5)
  store ptr addrspace(5) %a, ptr addrspace(1) @gp
  store i32 1, ptr addrspace(5) %a
  call void @helper()
  store i32 1, ptr addrspace(1) @out
  ret void
}
