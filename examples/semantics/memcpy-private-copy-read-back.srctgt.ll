; CLASS: h
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of the values voted on, arguments of a convergent operation are inexact
; (class m), so the values tried may miss one that matters; the default
; engine and the product decide the pair.)
; A copy of 8 bytes between private slots, read back and voted on: SROA's
; target forwards the stored values (private memory is thread state).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote(i32) #0
declare void @llvm.memcpy.p5.p5.i64(ptr addrspace(5), ptr addrspace(5), i64, i1)

define void @src(i32 %a) #0 {
entry:
  %x = alloca [2 x i32], addrspace(5)
  %y = alloca [2 x i32], addrspace(5)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr addrspace(5) %x
  %x1 = getelementptr [2 x i32], ptr addrspace(5) %x, i32 0, i32 1
  store i32 %a, ptr addrspace(5) %x1
  call void @llvm.memcpy.p5.p5.i64(ptr addrspace(5) %y, ptr addrspace(5) %x, i64 8, i1 false)
  %y1 = getelementptr [2 x i32], ptr addrspace(5) %y, i32 0, i32 1
  %v = load i32, ptr addrspace(5) %y1
  call void @vote(i32 %v)
  ret void
}

define void @tgt(i32 %a) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @vote(i32 %a)
  ret void
}

attributes #0 = { convergent nounwind }
