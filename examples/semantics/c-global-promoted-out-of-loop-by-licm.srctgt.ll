; CLASS: c
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; ARGS: --max-iters 2
; review3 H17 (cases ds-1/ds-2, opt-19 -passes='loop-mssa(licm)'): a
; global updated in every iteration is promoted to a register and stored
; once after the loop: each byte's last value in the segment is the same
; (semantics.md, class c). Under the product alone, inconclusive: its
; query compares stores one by one, and its second search (by segments)
; finds no difference within bounds (at the default max-iters 8 that
; search runs out of work).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global i32 0, align 4

define void @src(i32 %n) {
entry:
  br label %L
L:
  %i = phi i32 [ 0, %entry ], [ %i1, %L ]
  %v = load i32, ptr addrspace(1) @g, align 4
  %v1 = add i32 %v, %i
  store i32 %v1, ptr addrspace(1) @g, align 4
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %L, label %X
X:
  ret void
}

define void @tgt(i32 %n) {
entry:
  %g.promoted = load i32, ptr addrspace(1) @g, align 4
  br label %L
L:
  %v11 = phi i32 [ %g.promoted, %entry ], [ %v1, %L ]
  %i = phi i32 [ 0, %entry ], [ %i1, %L ]
  %v1 = add i32 %v11, %i
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %L, label %X
X:
  %v1.lcssa = phi i32 [ %v1, %L ]
  store i32 %v1.lcssa, ptr addrspace(1) @g, align 4
  ret void
}
