// Loop unswitching on a kernel argument: uniform and invariant, so every
// thread runs the same copy of the loop and convergence is unchanged.
void k(int flag) {
  while (c) {
    ... // L
    if (flag) {
      ... // T
    } else {
      ... // E
    }
  }
  ... // X
}
