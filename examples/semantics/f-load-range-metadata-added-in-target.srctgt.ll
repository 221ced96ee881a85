; CLASS: f
; EXPECT: violated
; The target adds `!range [0, 10)` to a load: a loaded 20 is poison there,
; and the branch on `v == 20` undefined behaviour where the reference is
; defined.
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @f(i32)

define void @src(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a, align 4
  %c = icmp eq i32 %v, 20
  br i1 %c, label %t, label %e
t:
  call void @f(i32 1)
  br label %e
e:
  ret void
}

define void @tgt(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a, align 4, !range !0
  %c = icmp eq i32 %v, 20
  br i1 %c, label %t, label %e
t:
  call void @f(i32 1)
  br label %e
e:
  ret void
}
!0 = !{i32 0, i32 10}
