; CLASS: i
; EXPECT: preserved
; The same load without `volatile` has no effect anyone sees: DCE may
; delete it.
@flag = addrspace(1) global i32 0

define void @src() {
entry:
  %v = load i32, ptr addrspace(1) @flag, align 4
  ret void
}

define void @tgt() {
entry:
  ret void
}
