; CLASS: e
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domains of @buf, whose value is stored, and of %k, compared at 64 bits and through a 32-bit view are inexact
; (class m), so the values tried may miss one that matters; the default
; engine and the product decide the pair.)
; `llvm.memcpy` whose source and destination overlap (and differ) is
; undefined behaviour (LangRef): where %k is 1 the reference constrains
; nothing, so a target that stores something else there is more defined.
; Where %k is 0 the copy is of a location onto itself, which is allowed.
@buf = addrspace(1) global [64 x i32] undef
declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)

define void @src(i32 %k) {
entry:
  %c = icmp ult i32 %k, 2
  br i1 %c, label %copy, label %end
copy:
  %s = getelementptr i8, ptr addrspace(1) @buf, i32 %k
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) @buf, ptr addrspace(1) %s, i64 4, i1 false)
  br label %end
end:
  ret void
}

define void @tgt(i32 %k) {
entry:
  %c = icmp ult i32 %k, 2
  br i1 %c, label %copy, label %end
copy:
  %z = icmp eq i32 %k, 0
  br i1 %z, label %self, label %other
self:
  %v = load i32, ptr addrspace(1) @buf
  store i32 %v, ptr addrspace(1) @buf
  br label %end
other:
  store i32 7, ptr addrspace(1) @buf
  br label %end
end:
  ret void
}
