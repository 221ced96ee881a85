// CLASS: n
// EXPECT: preserved
// Seed 001's loop unswitching by hand on a uniform invariant condition
// (one value for the whole run, the same in every thread): every thread
// runs the copy of the loop its value picks, all the same copy, and each
// thread's operations are those of the reference (issue 20, class n; the
// target is n-unswitch-uniform-invariant.tgt.c, what `loop-unswitch`
// does).
void k() {
  while (more) {
    body();
    if (uniform(invariant(sel))) {
      ballot();
    } else {
      other();
    }
  }
  done();
}
