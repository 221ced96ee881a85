; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine: the domain of `p` is inexact, class m.)
; opt-19 -passes=instcombine,simplifycfg on a kernel whose parameter is
; `noundef nonnull align 4`: `p == null` folded to false and
; `ptrtoint(p) & 3 == 0` to true (LangRef: a null or misaligned value is
; poison, and with `noundef` the caller's undefined behaviour). Was a
; violation under every engine.
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
  %l = and i64 %i, 3
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
