; CLASS: b
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of i are
;  inexact, class m; the other engines prove or preserve it.)
; CallSiteSplitting duplicates the call of a non-convergent callee into
; its predecessors: a call of a function that is not convergent constrains
; no convergence, and the callee's store is the same event in both.
@out = addrspace(1) global [64 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @put(i32 %i, i32 %v) {
entry:
  %p = getelementptr [64 x i32], ptr addrspace(1) @out, i32 0, i32 %i
  store i32 %v, ptr addrspace(1) %p
  ret void
}

define void @src(i1 %c) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  br label %j
j:
  %v = phi i32 [ 1, %a ], [ 2, %b ]
  call void @put(i32 %tid, i32 %v)
  ret void
}

define void @tgt(i1 %c) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %c, label %a, label %b
a:
  call void @put(i32 %tid, i32 1)
  br label %j
b:
  call void @put(i32 %tid, i32 2)
  br label %j
j:
  ret void
}
