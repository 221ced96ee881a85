// The target of m-times-two.src.c.
void k() {
  if (v == 2) {
    ... // A
  }
}
