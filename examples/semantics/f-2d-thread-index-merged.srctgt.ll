; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of group_size.x, group_size.y are
;  inexact, class m; the other engines prove or preserve it.)
; EXPECT-smt: preserved
; ARGS: --timeout 300
; The symbolic product decides it since a group has at most 1024 threads
; on NVPTX (Module::max_group, 2026-11-28). It took 7 to 11 s of z3 on
; the 64-bit `tid urem Nx` (release build, load 3; 46 to 52 s of CPU in
; the tests' build at load 9); since 2026-11-29 (afternoon) the thread
; index's remainder and quotient are divided on 32 bits (`bv.rs`,
; `narrow_division`): 8 s of CPU in the tests' build at load 9. The
; case keeps 300 s of wall clock for loaded machines.
; A 2-D block: each thread writes its cell `tile[ty * blockDim.x + tx]`
; and reads `threadIdx.y` twice; the target reads it once and computes
; the index as a GEP of rows. The thread index in y is one value per
; thread and the block's shape one per group
; (model/llvm/src/to_ir/groups.rs), so the addresses agree for every
; shape.
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
  %ty2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  store i32 %ty2, ptr addrspace(3) %p
  ret void
}

define void @tgt() {
entry:
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %row = mul i32 %ty, %nx
  %r = getelementptr i32, ptr addrspace(3) @tile, i32 %row
  %p = getelementptr i32, ptr addrspace(3) %r, i32 %tx
  store i32 %ty, ptr addrspace(3) %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
