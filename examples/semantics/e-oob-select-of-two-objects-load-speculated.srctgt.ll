; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.load
; e-oob-phi-of-two-objects-load-speculated with a `select`: p[5] of
; `select %c, @a, @b` hoisted above the guard `!%c`; where %c is true p is
; the 4-element @a (review3 L2). The object the condition chose is
; `%p.object` (model/llvm/src/to_ir/bounds.rs, `through_choice`).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@a = addrspace(1) global [4 x i32] zeroinitializer, align 4
@b = addrspace(1) global [8 x i32] zeroinitializer, align 4

define void @src(i1 %c) {
entry:
  %p = select i1 %c, ptr addrspace(1) @a, ptr addrspace(1) @b
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
  %p = select i1 %c, ptr addrspace(1) @a, ptr addrspace(1) @b
  %q = getelementptr i32, ptr addrspace(1) %p, i64 5
  %v = load i32, ptr addrspace(1) %q, align 4
  ret void
}
