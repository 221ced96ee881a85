// Seed 001: "if a condition inside a loop is uniform, the check is moved
// outside the loop". `sel` is uniform and invariant (one value for the
// whole run, the same in every thread, as a kernel argument is), so
// `loop-unswitch` unswitches the loop although K is a convergent
// operation: every thread runs the same copy, and K's instances stay
// converged as before.
void k() {
  while (more) {
    ... // L
    if (uniform(invariant(sel))) {
      ballot(); // K
    } else {
      ... // M
    }
  }
  ... // X
}
