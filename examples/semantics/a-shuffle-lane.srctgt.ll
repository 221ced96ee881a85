; CLASS: a
; EXPECT: violated
; EXPECT-MESSAGE: llvm.nvvm.shfl.sync.down.i32
; clang -O2's warp reduction, one step: the shuffle reads lane tid+8 in the
; reference and tid+4 in the target (issue 20, class a).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32) #0

define i32 @src(i32 %v) {
entry:
  %s = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v, i32 8, i32 31)
  %r = add i32 %v, %s
  ret i32 %r
}

define i32 @tgt(i32 %v) {
entry:
  %s = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v, i32 4, i32 31)
  %r = add i32 %v, %s
  ret i32 %r
}

attributes #0 = { convergent nounwind }
