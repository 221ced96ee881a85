// CLASS: n
// EXPECT: preserved
// ARGS: --threads 2
// A uniform-invariant oracle read by thread 0 in the reference and by
// thread 1 in the target (`||` decides without it in the other thread):
// both threads meet at the first `x` exactly when `w` is 1, in both
// programs, since `w` is one value in every thread. A scenario that gives
// thread 1's target read another value than thread 0's reference read is
// no scenario; the explicit engine once took it for one and reported a
// convergence violation here. Two threads (ARGS): with a third, tid 2
// reads `w` in both programs and the target does separate it from tid 0
// when `w` is 0 (the pair is tgt: n-read-moves-between-threads.tgt.c).
void k() {
  if (tid == 1 || uniform(invariant(w))) {
    x();
  } else {
    x();
  }
}
