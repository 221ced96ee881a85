; CLASS: f
; EXPECT: preserved
; A module with a named struct type built by `insertvalue` in another
; function (clang -O0's struct-returning device functions, review3 H12) is
; valid IR: it parses, and a function without aggregates is decided
; (`3` and `1 + 2` are equal).
target triple = "nvptx64-nvidia-cuda"
%struct.P = type { float, float }
@out = addrspace(1) global i32 0

define internal %struct.P @mk(float %a) {
  %r = insertvalue %struct.P undef, float %a, 0
  %s = insertvalue %struct.P %r, float %a, 1
  %f = extractvalue %struct.P %s, 1
  %t = insertvalue %struct.P %s, float %f, 0
  ret %struct.P %t
}

define void @src(i32 %x) {
  store i32 3, ptr addrspace(1) @out
  ret void
}

define void @tgt(i32 %x) {
  %n = add i32 1, 2
  store i32 %n, ptr addrspace(1) @out
  ret void
}
