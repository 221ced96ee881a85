// The target of n-read-moves-between-threads.src.c.
void k() {
  if (tid == 0 || uniform(invariant(w))) {
    x();
  } else {
    x();
  }
}
