; CLASS: e
; EXPECT: preserved
; opt-19 -passes=sroa (review3 H3, un-1 -> un-2): the slot stored 5 only
; where %c; SROA's `phi [5, undef]` is folded to 5, and the frozen value
; goes through arithmetic before it is stored (16). Where %c is false the
; reference's `freeze` of the uninitialised load may choose 5 (LangRef),
; so the target is one of its behaviours. The choice search tried only 0,
; 1, -1 and the target's shown values (16): violated under every engine.
; It now also tries the reference's own constants (5 here:
; `convcheck_ir::exec::observe::choice_constants`).
target triple = "amdgcn-amd-amdhsa"
@out = addrspace(1) global i32 0

define void @src(i1 %c) {
entry:
  %a = alloca i32, align 4, addrspace(5)
  br i1 %c, label %S, label %J
S:
  store i32 5, ptr addrspace(5) %a, align 4
  br label %J
J:
  %v = load i32, ptr addrspace(5) %a, align 4
  %vf = freeze i32 %v
  %m = mul i32 %vf, 3
  %x = add i32 %m, 1
  store i32 %x, ptr addrspace(1) @out, align 4
  ret void
}

define void @tgt(i1 %c) {
entry:
  br i1 %c, label %S, label %J
S:
  br label %J
J:
  %vf = freeze i32 5
  %m = mul i32 %vf, 3
  %x = add i32 %m, 1
  store i32 %x, ptr addrspace(1) @out, align 4
  ret void
}
