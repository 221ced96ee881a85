; CLASS: c
; EXPECT: violated
; `@znjlbqni` and `@jaqcoenp` hash to one 31-bit tag; distinct globals never
; alias, so the load of `@jaqcoenp` does not read the store to `@znjlbqni`
; (the second name takes the next free tag, docs/src/semantics.md).
target triple = "nvptx64-nvidia-cuda"
@znjlbqni = addrspace(1) global i32 0, align 4
@jaqcoenp = addrspace(1) global i32 0, align 4
declare void @f(i32)

define void @src() {
entry:
  store i32 5, ptr addrspace(1) @znjlbqni, align 4
  %v = load i32, ptr addrspace(1) @jaqcoenp, align 4
  call void @f(i32 %v)
  ret void
}

define void @tgt() {
entry:
  store i32 5, ptr addrspace(1) @znjlbqni, align 4
  %v = load i32, ptr addrspace(1) @jaqcoenp, align 4
  call void @f(i32 5)
  ret void
}
