// CLASS: n
// EXPECT: violated
// EXPECT-MESSAGE: single-thread behaviour
// The same unswitching on a merely uniform condition (the same in every
// thread, a fresh value at each iteration): the target reads it once, so
// a thread's sequence of operations changes (no pass does this; it is
// not loop-invariant).
void k() {
  while (more) {
    body();
    if (uniform(sel)) {
      ballot();
    } else {
      other();
    }
  }
  done();
}
