; CLASS: e
; EXPECT: proved
; EXPECT-explicit: preserved
; (The explicit engine alone proves nothing for every iteration count.)
; The control of e-oob-phi-of-two-objects-load-speculated: p[3] is inside
; both @a and @b, so the hoisted unused load is defined wherever the phi
; came from (review3 L2).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@a = addrspace(1) global [4 x i32] zeroinitializer, align 4
@b = addrspace(1) global [8 x i32] zeroinitializer, align 4

define void @src(i1 %c) {
entry:
  br i1 %c, label %A, label %B
A:
  br label %J
B:
  br label %J
J:
  %p = phi ptr addrspace(1) [ @a, %A ], [ @b, %B ]
  br i1 %c, label %S, label %T
T:
  %q = getelementptr i32, ptr addrspace(1) %p, i64 3
  %v = load i32, ptr addrspace(1) %q, align 4
  br label %S
S:
  ret void
}

define void @tgt(i1 %c) {
entry:
  br i1 %c, label %A, label %B
A:
  br label %J
B:
  br label %J
J:
  %p = phi ptr addrspace(1) [ @a, %A ], [ @b, %B ]
  %q = getelementptr i32, ptr addrspace(1) %p, i64 3
  %v = load i32, ptr addrspace(1) %q, align 4
  ret void
}
