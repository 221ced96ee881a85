; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of group_id.x are
;  inexact, class m; the other engines prove or preserve it.)
; A barrier duplicated into both arms of a branch on `blockIdx.x`: every
; thread of a group has the same group index, so all take the same arm
; and meet at the same barrier. A model that gave each thread its own
; group index would see barrier divergence here.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  call void @llvm.nvvm.barrier0()
  %odd = and i32 %b, 1
  store i32 %odd, ptr addrspace(1) %slot
  ret void
}

define void @tgt() {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %odd = and i32 %b, 1
  %c = icmp eq i32 %odd, 1
  br i1 %c, label %one, label %zero

one:
  call void @llvm.nvvm.barrier0()
  br label %done

zero:
  call void @llvm.nvvm.barrier0()
  br label %done

done:
  store i32 %odd, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0() #0
attributes #0 = { convergent nounwind }
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
