// The other mutant of unswitch-uniform-invariant.c: `sel` is uniform but
// not invariant (a fresh value, the same in every thread, at each
// iteration). No pass unswitches it (it is not loop-invariant);
// unswitch-uniform-only-target.c is the loop unswitched by hand, which
// reads `sel` once, so a thread's sequence of operations changes. The
// operations are calls, labelled by their callee in both files.
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
