; CLASS: c
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the call's result is a function oracle
; whose domain is inexact; the product answers.)
; Review2 G13 (was proved by structure): @rd is `memory(argmem: read)` and reads
; the constant table @t, whose last entry the target's module changes.
; A constant cannot change within a module, so its bytes are no inputs of
; the call's oracle; instead the oracle's name carries a hash of the
; initializers of the constants the call may read (call_reads.rs,
; constants_tag), so the two modules' calls are two functions.
target triple = "nvptx64-nvidia-cuda"
@t = addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4] ; only: src
@t = addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 5] ; only: tgt
@out = addrspace(1) global i32 0
declare i32 @rd(ptr addrspace(1)) memory(argmem: read) nounwind willreturn

define void @src() {
entry:
  %r = call i32 @rd(ptr addrspace(1) @t)
  store i32 %r, ptr addrspace(1) @out
  ret void
}

define void @tgt() {
entry:
  %r = call i32 @rd(ptr addrspace(1) @t)
  store i32 %r, ptr addrspace(1) @out
  ret void
}
