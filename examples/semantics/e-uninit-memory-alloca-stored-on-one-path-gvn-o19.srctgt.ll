; CLASS: e
; EXPECT: inconclusive
; (The explicit engine alone: the domain of the load's memory value `%a`
; is inexact, as the load is in the program where the element was
; stored; the product leaves the scenario where the reference's choice
; explains the target to the explicit engine ("not modelled"). Since
; review3 H15 such a pair is inconclusive under the default engine too:
; the explicit engine's preserved does not stand on inexact domains. The
; promoted form of this fold is `e-uninit-*` of class e, preserved.)
; A private array kept in memory (its address goes to @use) with an
; element stored on one path only: where %c is 0 the load reads nothing
; stored (`undef`: the reference's choice), where %c is 1 it reads 5.
; opt-19 -passes='gvn,instcombine,simplifycfg' folds the load to
; `phi [5, undef]` and then to 5, stored to @out: one choice of the
; reference on each path.
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
  store i32 5, ptr addrspace(1) @out, align 4
  call void @use(ptr nonnull %a)
  ret void
}
