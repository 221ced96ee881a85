; CLASS: e
; EXPECT: violated
; The reference stores 5 to the slot on every path before it reads it;
; the target reads the slot where nothing was stored (`undef`, any value
; the target picks), so it stores a value other than 5 in some run: less
; defined than the reference.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0

define void @src(i1 %c) {
entry:
  %a = alloca i32, align 4
  store i32 5, ptr %a
  br i1 %c, label %s, label %j
s:
  br label %j
j:
  %v = load i32, ptr %a
  %w = freeze i32 %v
  store i32 %w, ptr addrspace(1) @out
  ret void
}

define void @tgt(i1 %c) {
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
