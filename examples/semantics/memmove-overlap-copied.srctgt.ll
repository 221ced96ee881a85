; CLASS: c
; EXPECT: violated
; `llvm.memmove` may overlap: it copies through a temporary, so the bytes
; at @buf[1..5) are stored at @buf[0..4). The same target as
; memcpy-overlap-in-source, which stores 7 there, is caught.
@buf = addrspace(1) global [64 x i32] undef
declare void @llvm.memmove.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)

define void @src(i32 %k) {
entry:
  %c = icmp ult i32 %k, 2
  br i1 %c, label %copy, label %end
copy:
  %s = getelementptr i8, ptr addrspace(1) @buf, i32 %k
  call void @llvm.memmove.p1.p1.i64(ptr addrspace(1) @buf, ptr addrspace(1) %s, i64 4, i1 false)
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
