; CLASS: f
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; EXPECT-smt: inconclusive
; The target is opt-19 -passes=instcombine on the reference: `icmp eq %v,
; null` of a `nonnull` call result and of a `!nonnull` load, and the low
; bits `ptrtoint(%v) & 15` of an `align 16` call result, folded to 0. Where
; a fact is false its value is poison, which reaches the stored sum (the
; reference's undefined behaviour): the folds are correct (review2 G3, the
; converse of the facts added in a target).
; Explicit: inconclusive, it cannot try every pointer value (inexact domains).
; `--engine smt`: inconclusive since 2026-11-29 (late morning; was proved
; by the simulation while the stored poison was undefined behaviour, a
; path of its own): the simulation finds no relation now that the stored
; value carries its definedness, and the product's search over observed
; events finds no difference but does not prove it (a FIXME; the default
; engine still answers preserved).
target triple = "nvptx64-nvidia-cuda"
@gp = addrspace(1) global ptr addrspace(1) null
@out = addrspace(1) global i32 0
declare ptr addrspace(1) @fp() memory(none) nounwind willreturn

define void @src() {
entry:
  %v = call nonnull align 16 ptr addrspace(1) @fp()
  %c = icmp eq ptr addrspace(1) %v, null
  %i = ptrtoint ptr addrspace(1) %v to i64
  %m = and i64 %i, 15
  %t = trunc i64 %m to i32
  %z = zext i1 %c to i32
  %s = add i32 %z, %t
  %w = load ptr addrspace(1), ptr addrspace(1) @gp, !nonnull !0
  %c2 = icmp eq ptr addrspace(1) %w, null
  %z2 = zext i1 %c2 to i32
  %s2 = add i32 %s, %z2
  store i32 %s2, ptr addrspace(1) @out
  ret void
}

define void @tgt() {
entry:
  store i32 0, ptr addrspace(1) @out, align 4
  ret void
}
!0 = !{}
