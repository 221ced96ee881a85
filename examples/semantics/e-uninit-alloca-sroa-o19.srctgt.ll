; CLASS: e
; EXPECT: preserved
; An alloca's bytes start `undef` (LangRef): where %c is 0 the load reads a
; slot nothing was stored to, and the frozen value is the reference's to
; choose. opt-19 -passes=sroa turns the load into `phi [5, undef]` and
; folds it to 5, stored after the freeze: 5 is one choice of the
; reference (red-team G10, un-a -> un-c). Violated before (the model
; started the slot at 0).
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0

define void @src(i1 %c) {
entry:
  %a = alloca i32, align 4
  br i1 %c, label %s, label %j
s:
  store i32 5, ptr %a
  br label %j
j:
  %v = load i32, ptr %a
  %w = freeze i32 %v
  store i32 %w, ptr addrspace(1) @out
  ret void
}

define void @tgt(i1 %c) {
entry:
  br i1 %c, label %s, label %j
s:
  br label %j
j:
  %w = freeze i32 5
  store i32 %w, ptr addrspace(1) @out, align 4
  ret void
}
