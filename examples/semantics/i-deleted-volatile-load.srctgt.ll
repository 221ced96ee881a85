; CLASS: i
; EXPECT: violated
; EXPECT-MESSAGE: volatile load
; A volatile access is always observed: deleting an unused volatile load
; is a change.
@flag = addrspace(1) global i32 0

define void @src() {
entry:
  %v = load volatile i32, ptr addrspace(1) @flag, align 4
  ret void
}

define void @tgt() {
entry:
  ret void
}
