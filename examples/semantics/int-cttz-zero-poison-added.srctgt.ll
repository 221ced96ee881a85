; CLASS: int
; EXPECT: preserved
; FIXME(issue 20 item 3): `cttz(x, false)` turned into `cttz(x, true)` on a
; path where x may be 0 makes the target less defined (poison where the
; source stores 32), which LangRef makes a violation. The model has no
; poison values: it takes `cttz(0, true)` to be 32, one of the values
; poison may take (model/llvm/src/to_ir/intrinsics.rs), so it says
; preserved. The case records today's answer; it must become `violated`.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer

define void @src(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %t = call i32 @llvm.cttz.i32(i32 %x, i1 false)
  store i32 %t, ptr addrspace(1) %slot
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid.slot = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid.slot
  %t = call i32 @llvm.cttz.i32(i32 %x, i1 true)
  store i32 %t, ptr addrspace(1) %slot
  ret void
}

declare i32 @llvm.cttz.i32(i32, i1 immarg)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
