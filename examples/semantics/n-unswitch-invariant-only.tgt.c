// The target of n-unswitch-invariant-only.src.c.
void k() {
  if (invariant(sel)) {
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
