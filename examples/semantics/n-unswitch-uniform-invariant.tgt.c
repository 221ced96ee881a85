// The target of n-unswitch-uniform-invariant.src.c.
void k() {
  if (uniform(invariant(sel))) {
    while (more) {
      body();
      ballot();
    }
  } else {
    while (more) {
      body();
      other();
    }
  }
  done();
}
