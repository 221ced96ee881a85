; CLASS: f
; EXPECT: preserved
; A hand-written NVPTX kernel (no clang `range` on the read) whose test
; `tid.x < 1024` InstCombine folds to true once NVVMIntrRangePass (opt-19)
; or the intrinsic's own range (opt-22) states `range(i32 0, 1024)`: a
; group of an NVPTX kernel has at most 1024 threads (Module::max_group),
; so no scenario has a thread 1024 (was a false alarm at tid = 2^31).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %c = icmp ult i32 %t, 1024
  br i1 %c, label %then, label %end
then:
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  br label %end
end:
  ret void
}

define void @tgt() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  ret void
}
