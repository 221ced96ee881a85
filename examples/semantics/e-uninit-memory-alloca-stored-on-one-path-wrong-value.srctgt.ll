; CLASS: e
; EXPECT: violated
; The pair of e-uninit-memory-alloca-stored-on-one-path-gvn-o19 with a
; target that stores 6 where %c is 1: there the reference's load reads the
; 5 it stored (the element was written on that path, so no choice of the
; reference gives 6).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0

declare void @use(ptr)

define void @src(i1 %c) {
entry:
  %a = alloca [2 x i32], align 4
  %p = getelementptr [2 x i32], ptr %a, i32 0, i32 1
  br i1 %c, label %s, label %j
s:
  store i32 5, ptr %p, align 4
  br label %j
j:
  %v = load i32, ptr %p, align 4
  %w = freeze i32 %v
  store i32 %w, ptr addrspace(1) @out, align 4
  call void @use(ptr %a)
  ret void
}

define void @tgt(i1 %c) {
entry:
  %a = alloca [2 x i32], align 4
  br i1 %c, label %s, label %j

s:
  %p = getelementptr inbounds i8, ptr %a, i64 4
  store i32 5, ptr %p, align 4
  br label %j

j:
  %r = select i1 %c, i32 6, i32 5
  store i32 %r, ptr addrspace(1) @out, align 4
  call void @use(ptr nonnull %a)
  ret void
}
