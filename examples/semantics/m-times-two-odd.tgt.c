// The target of m-times-two-odd.src.c.
void k() {
  if (v == 2) {
    ... // A
  }
}
