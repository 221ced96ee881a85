; CLASS: e
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (the explicit engine pairs tid 0, whose run is undefined, with tid 1 only,
; so it compares nothing: docs/src/semantics.md, the known gap)
; A load of a slot nothing was stored to reads `undef` (LangRef), so
; branching on it is undefined behaviour in the source already: SROA's
; `phi [undef, ...]` in the target is no new undefined behaviour. (Before
; the slots' definedness was tracked, the source's load read a value and
; the target's undef was an alarm: examples/gpu `warp_reduce` at SROA.)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @op() #0

define void @src() #0 {
entry:
  %v = alloca i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %use, label %set
set:
  store i32 1, ptr %v
  br label %use
use:
  %x = load i32, ptr %v
  %d = icmp eq i32 %x, 1
  br i1 %d, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %use, label %set
set:
  br label %use
use:
  %x = phi i32 [ undef, %entry ], [ 1, %set ]
  %d = icmp eq i32 %x, 1
  br i1 %d, label %a, label %b
a:
  call void @op()
  br label %b
b:
  ret void
}

attributes #0 = { convergent nounwind }
