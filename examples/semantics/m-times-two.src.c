// CLASS: m
// EXPECT: violated
// EXPECT-explicit: inconclusive
// `v * 2 == 4` holds for v = 2 and for v = 2 + 2^63 (64-bit wrapping), so
// the target's `v == 2` is not the same test. The explicit engine cannot
// invert `v * 2` and lists `v` among the inexact domains (it tries 0 and
// 2), so alone it answers inconclusive naming `v`; under the default engine and `smt`, a target file preserved with
// inexact domains goes to the product, which compares the two kernels'
// token CFGs and finds v = 2 + 2^63 (the pair is tgt: m-times-two.tgt.c).
void k() {
  if (v * 2 == 4) {
    ... // A
  }
}
