// unswitch-uniform-only.c unswitched by hand on its merely uniform
// condition: wrong, the condition is read once instead of at every
// iteration.
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
