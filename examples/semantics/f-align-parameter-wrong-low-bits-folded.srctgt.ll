; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: __ballot_sync
; The same fold of `ptrtoint(p) & 7 == 0` under `align 4`: p = 4 tells
; them apart.
target triple = "nvptx64-nvidia-cuda"
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(ptr addrspace(1) noundef nonnull align 4 %p) {
entry:
  %c = icmp eq ptr addrspace(1) %p, null
  br i1 %c, label %then, label %next
then:
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  br label %next
next:
  %i = ptrtoint ptr addrspace(1) %p to i64
  %l = and i64 %i, 7
  %d = icmp eq i64 %l, 0
  br i1 %d, label %end, label %odd
odd:
  %b2 = call i32 @__ballot_sync(i32 -1, i32 2)
  br label %end
end:
  store i32 7, ptr addrspace(1) %p
  ret void
}

define void @tgt(ptr addrspace(1) noundef nonnull align 4 %p) {
entry:
  store i32 7, ptr addrspace(1) %p, align 4
  ret void
}
