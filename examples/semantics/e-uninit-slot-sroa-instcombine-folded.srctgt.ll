; CLASS: e
; EXPECT: preserved
; opt-19 -passes=sroa,instcombine (review3 H3, un-1 -> un-3): as
; e-uninit-slot-sroa-freeze-then-arithmetic, with `freeze 5 * 3 + 1`
; folded to `store i32 16`. The reference's choice 5 (one of its constants)
; gives 16 where %c is false.
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
  store i32 16, ptr addrspace(1) @out, align 4
  ret void
}
