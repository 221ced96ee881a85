; CLASS: e
; EXPECT: violated
; EXPECT-explicit: inconclusive
; The reverse of `e-freeze-undef-folded-to-zero`: the reference stores 0
; and the target `freeze i32 undef`, a value the target chooses. Any value
; but 0 is a store the reference never makes: less defined. The explicit
; engine's domain of the stored value is inexact (it tries 0 alone here);
; the product finds 1.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 0, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %f = freeze i32 undef
  store i32 %f, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
