; A shuffle that runs only in blocks 64 threads wide, and a row-dependent
; store: block-folded.ll folds the test as if blocks were never 64 wide.
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %out) {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %w = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %wide = icmp eq i32 %w, 64
  br i1 %wide, label %shuffle, label %store
shuffle:
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %x, i32 0, i32 31)
  br label %store
store:
  %v = phi i32 [ %s, %shuffle ], [ %x, %entry ]
  %row = mul i32 %y, %w
  %i = add i32 %row, %x
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %v, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32) convergent
