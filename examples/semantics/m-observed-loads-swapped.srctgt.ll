; CLASS: m
; EXPECT: violated
; EXPECT-MESSAGE: store @out
; EXPECT-explicit: inconclusive
; The target copies @b where the reference copies @a. A load of global
; memory never written in the run reads a free value named by the
; location (DESIGN.md 2.6), and nothing compares it, so the explicit
; engine tries one value for each location and the copies agree there
; (preserved, before observed values counted). The loaded values reach
; a store, so their domains are inexact: inconclusive under the explicit
; engine alone, violated by the product.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
@a = addrspace(1) global [1024 x i32] zeroinitializer
@b = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %pa = getelementptr [1024 x i32], ptr addrspace(1) @a, i32 0, i32 %tid
  %v = load i32, ptr addrspace(1) %pa
  store i32 %v, ptr addrspace(1) %slot
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %pb = getelementptr [1024 x i32], ptr addrspace(1) @b, i32 0, i32 %tid
  %v = load i32, ptr addrspace(1) %pb
  store i32 %v, ptr addrspace(1) %slot
  ret void
}
