// Loop unswitching on a per-thread (invariant but divergent) condition:
// threads with different values of d would run different copies of the
// loop and stop meeting at L.
void k() {
  while (c) {
    ... // L
    if (invariant(d)) {
      ... // T
    } else {
      ... // E
    }
  }
  ... // X
}
