; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.load
; An unused load of p[5] hoisted above its guard, where p is a phi of the
; 4-element @a and the 8-element @b (review3 L2): where %c is true p is @a
; and p[5] is outside it, undefined behaviour the reference does not have
; (LangRef, "load"). The bounds rule applies through the phi per incoming
; edge: `%p.object`, the base of the object the edge chose, a phi of
; constants beside %p (model/llvm/src/to_ir/bounds.rs, `through_choice`).
; Before, a phi of two different objects was unchecked: proved.
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
  %q = getelementptr i32, ptr addrspace(1) %p, i64 5
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
  %q = getelementptr i32, ptr addrspace(1) %p, i64 5
  %v = load i32, ptr addrspace(1) %q, align 4
  ret void
}
