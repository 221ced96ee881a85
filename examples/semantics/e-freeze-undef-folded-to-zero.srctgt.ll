; CLASS: e
; EXPECT: preserved
; `freeze i32 undef` is an arbitrary value, fixed where it is frozen, and
; the reference's to choose (LangRef; Alive2 reads the source's
; nondeterminism angelically): InstCombine folds it to 0, one of the
; values the reference may store, so the target refines it.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %f = freeze i32 undef
  store i32 %f, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 0, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
