// Class g (no false alarm), for loop unswitching: `f` holds a uniform
// value read where every thread is converged, after an evaluation of the
// same oracle under a divergent branch. Unswitching the loop on `f` keeps
// every thread in one copy.
void k() {
  if (c) {
    if (uniform(u)) {
      ... // A
    }
  }
  int f = uniform(u);
  while (w) {
    if (f) {
      ballot();
    } else {
      ... // E
    }
  }
}
