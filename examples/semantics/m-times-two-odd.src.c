// CLASS: m
// EXPECT: preserved
// `v * 3 == 6` against `v == 2`: 3 is odd, so `v * 3` is invertible under
// 64-bit wrapping and v = 2 is the only solution. The explicit engine's
// domains invert it (exact), and the product agrees.
void k() {
  if (v * 3 == 6) {
    ... // A
  }
}
