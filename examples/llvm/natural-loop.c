// LLVM ConvergenceAndUniformity, "Maximal Convergence": a natural loop
// with header H, a conditional block B and the latch L (Entry -> H,
// H -> B, H -> L, B -> L, L -> H, L -> Exit).
void natural_loop() {
  ... // Entry
  do {
    ... // H
    if (c1) {
      ... // B
    }
    ... // L
  } while (c2);
  ... // Exit
}
