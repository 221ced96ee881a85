; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: store @tile
; EXPECT-explicit: inconclusive
; The explicit engine tries one or two values of an input that no branch
; tests (its domains, DESIGN.md 2.2), here none that tells the two
; apart; the symbolic product, which tries every value, finds it. The
; group sizes reach the address through arithmetic the analysis does not
; invert (inexact domains of `group_size.x`, `group_size.y`), so the
; explicit engine alone answers inconclusive (class m).
; The target indexes the tile by columns (`tx * blockDim.y + ty`) where
; the source indexes it by rows: for a block of 2 × 2 threads, thread 1
; (x = 1, y = 0) writes cell 2 instead of cell 1.
target triple = "nvptx64-nvidia-cuda"
@tile = addrspace(3) global [1024 x i32] undef

define void @src() {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %row = mul i32 %ty, %nx
  %i = add i32 %row, %tx
  %p = getelementptr [1024 x i32], ptr addrspace(3) @tile, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p
  ret void
}

define void @tgt() {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %col = mul i32 %tx, %ny
  %i = add i32 %col, %ty
  %p = getelementptr [1024 x i32], ptr addrspace(3) @tile, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
