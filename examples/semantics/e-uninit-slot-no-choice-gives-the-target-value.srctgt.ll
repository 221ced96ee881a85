; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: store @out
; The control of e-uninit-slot-sroa-freeze-then-arithmetic (review3 H3):
; the reference stores `2 * freeze(v) + 6`, even whatever the choice, and
; the target stores 17 where %c is false: no choice explains it (the
; candidates now include the reference's constants; none is enough).
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
  %m = shl i32 %vf, 1
  %x = add i32 %m, 6
  store i32 %x, ptr addrspace(1) @out, align 4
  ret void
}

define void @tgt(i1 %c) {
entry:
  br i1 %c, label %S, label %J
S:
  br label %J
J:
  %x = select i1 %c, i32 16, i32 17
  store i32 %x, ptr addrspace(1) @out, align 4
  ret void
}
