; CLASS: e
; EXPECT: violated
; A phi of a known global and `inttoptr (i64 4096)` (review3 H2): on the %B
; path the reference loads absolute address 4096 (which may be any
; object: @a's bounds do not apply) and stores it; the target stores 99.
; The merged address's object is unknown, not @a.
target triple = "nvptx64-nvidia-cuda"
@a = addrspace(1) global [4 x i32] zeroinitializer, align 4
@out = addrspace(1) global i32 0

define void @src(i1 %c) {
entry:
  br i1 %c, label %A, label %B
A:
  br label %J
B:
  br label %J
J:
  %p = phi ptr addrspace(1) [ @a, %A ], [ inttoptr (i64 4096 to ptr addrspace(1)), %B ]
  %v = load i32, ptr addrspace(1) %p, align 4
  store i32 %v, ptr addrspace(1) @out, align 4
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
  %p = phi ptr addrspace(1) [ @a, %A ], [ inttoptr (i64 4096 to ptr addrspace(1)), %B ]
  %v = load i32, ptr addrspace(1) %p, align 4
  %w = select i1 %c, i32 %v, i32 99
  store i32 %w, ptr addrspace(1) @out, align 4
  ret void
}
