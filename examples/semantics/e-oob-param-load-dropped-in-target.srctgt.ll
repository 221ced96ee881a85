; CLASS: e
; EXPECT: proved
; EXPECT-explicit: inconclusive
; A target more defined than its reference: the reference loads p[3]
; (through a parameter without dereferenceable, so undefined behaviour
; where p's object ends before p[4]) and uses the value only where it
; cannot matter; the target drops the load. Where the reference is
; defined the target is too (the end of memory that defines the
; reference defines the target, which accesses less).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) noundef align 4 %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %e = getelementptr inbounds i32, ptr addrspace(1) %p, i32 3
  %v = load i32, ptr addrspace(1) %e, align 4
  %z = and i32 %v, 0
  %r = add i32 %z, %t
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %r, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) noundef align 4 %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %t, ptr addrspace(1) %q, align 4
  ret void
}
