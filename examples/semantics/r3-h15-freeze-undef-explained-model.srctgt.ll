; CLASS: m
; EXPECT: inconclusive
; EXPECT-auto: violated
; The reference stores a `freeze undef` (any value) to @o1 and %x to @o2;
; the target stores 0 to @o1 (a legal choice) and a value wrong only at
; x = 1234 to @o2 (review3 H15). The explicit engine's domains of x are
; inexact (it misses 1234); the product's first model differs only at @o1,
; which another choice of the freeze explains ("not modelled"): under the
; default engine the stage is inconclusive, never preserved. The product
; run as the engine (`--engine smt`) found x = 1234 when z3's first model
; was one, and answers inconclusive where its first model is explained by
; a choice (since observed values carry their definedness, 2026-11-29):
; which model comes first is z3's, so the case expects inconclusive of
; every engine (the product does not search the choices: "Not yet
; modelled" in docs/src/semantics.md). Since plain stores carry their
; segment in the product's query (2026-11-29, afternoon), the default
; engine's product search finds x = 1234 (violated, the right answer);
; `--engine smt` still meets a model a choice explains first.
target triple = "nvptx64-nvidia-cuda"
@o1 = addrspace(1) global i32 0
@o2 = addrspace(1) global i32 0

define void @src(i32 %x) {
entry:
  %f = freeze i32 undef
  store i32 %f, ptr addrspace(1) @o1
  store i32 %x, ptr addrspace(1) @o2
  ret void
}

define void @tgt(i32 %x) {
entry:
  store i32 0, ptr addrspace(1) @o1
  %sq = mul i32 %x, %x
  %c = icmp eq i32 %sq, 1522756
  %y = select i1 %c, i32 7, i32 %x
  store i32 %y, ptr addrspace(1) @o2
  ret void
}
