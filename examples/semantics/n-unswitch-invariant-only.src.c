// CLASS: n
// EXPECT: violated
// EXPECT-MESSAGE: convergence at `body`
// The same unswitching on a merely invariant condition (one value per
// thread, different across threads): threads with different values run
// different copies of the loop and their instances of `body` no longer
// converge (what `loop-unswitch.unsafe` does; the safe pass refuses).
void k() {
  while (more) {
    body();
    if (invariant(sel)) {
      ballot();
    } else {
      other();
    }
  }
  done();
}
