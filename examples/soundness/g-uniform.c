// Class g (no false alarm): `uniform(u)` means what LLVM's uniformity
// means, the same value for every thread in one converged dynamic
// instance. The first evaluation is under a divergent `c`; the second is
// reached by all threads together, so they agree there, and hoisting the
// ballots out of it (or unswitching on it) is correct.
void k() {
  if (c) {
    if (uniform(u)) {
      ... // A
    }
  }
  if (uniform(u)) {
    ballot();
    ... // T
  } else {
    ballot();
    ... // E
  }
}
