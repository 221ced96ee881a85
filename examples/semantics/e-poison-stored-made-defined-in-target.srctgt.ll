; CLASS: e
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; The reverse of `int-cttz-zero-poison-added`: the reference stores
; `cttz(x, true)`, poison at x = 0, and the target `cttz(x, false)`, 32
; there: more defined, so preserved. Where the reference stores poison
; the target may store anything (the stored value carries its
; definedness, model/llvm/src/to_ir/poison.rs).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %t = call i32 @llvm.cttz.i32(i32 %x, i1 true)
  store i32 %t, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %t = call i32 @llvm.cttz.i32(i32 %x, i1 false)
  store i32 %t, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.cttz.i32(i32, i1 immarg)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
