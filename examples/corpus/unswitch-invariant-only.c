// The mutant of unswitch-uniform-invariant.c: `sel` is invariant but not
// uniform (one value per thread, different across threads). The safe
// `loop-unswitch` leaves the loop alone; `loop-unswitch.unsafe` unswitches
// it and threads with different values of `sel` run different copies of
// the loop, so their instances of L no longer converge.
void k() {
  while (more) {
    ... // L
    if (invariant(sel)) {
      ballot(); // K
    } else {
      ... // M
    }
  }
  ... // X
}
