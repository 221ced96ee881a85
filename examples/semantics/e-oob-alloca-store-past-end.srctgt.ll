; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: undefined behaviour
; A private array (an alloca of [2 x i32] kept in memory) written and read
; back at index tid & 1; the target indexes it with tid & 3, past its end
; for tid & 3 >= 2: undefined behaviour in the target only (was: a
; different private location, so only the stored value's path differed).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %a = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %i = and i32 %tid, 1
  %p = getelementptr inbounds [2 x i32], ptr %a, i32 0, i32 %i
  store i32 7, ptr %p, align 4
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt() {
entry:
  %a = alloca [2 x i32], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %i = and i32 %tid, 3
  %p = getelementptr inbounds [2 x i32], ptr %a, i32 0, i32 %i
  store i32 7, ptr %p, align 4
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}
