// The target of n-unswitch-uniform-only.src.c.
void k() {
  if (uniform(sel)) {
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
