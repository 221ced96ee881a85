; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the call's result is a function oracle
; whose domain is inexact; the product answers.)
; Review2 L4 (was preserved): @rd reads only inaccessible memory, @wr
; writes only inaccessible memory; the target calls @rd before @wr, so it
; may read another value. A reader of inaccessible memory depends on the
; memory version, which counts every call that may write (an event).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global i32 0
declare void @wr() memory(inaccessiblemem: write) nounwind willreturn
declare i32 @rd() memory(inaccessiblemem: read) nounwind willreturn

define void @src() {
entry:
  call void @wr()
  %r = call i32 @rd()
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define void @tgt() {
entry:
  %r = call i32 @rd()
  call void @wr()
  store i32 %r, ptr addrspace(1) @out
  ret void
}
