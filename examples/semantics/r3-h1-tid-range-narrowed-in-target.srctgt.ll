; CLASS: f
; EXPECT: preserved
; FIXME(issue 20): LangRef says violated. A thread index call with
; `noundef range(i32 0, 2)` in the target only (review3 H1): tid 5 is
; poison there, and with `noundef` undefined behaviour; the reference
; stores 5. A call-site `range` on the reads of thread and group indices
; and sizes is not read (`ranges.rs`, `of_call`): clang states their
; LLVM ranges there, and the test's constants cut every run of
; `examples/gpu/histogram.cu` under `default<O2>` (n = 1024 taken by the
; domain analysis). Reading only ranges narrower than the model's own
; is left to do.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %t, ptr addrspace(1) %p
  ret void
}

define void @tgt() {
entry:
  %t = call noundef range(i32 0, 2) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %t, ptr addrspace(1) %p
  ret void
}
