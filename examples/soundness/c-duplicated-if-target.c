// Class c, target: the test duplicated. The second evaluation of `c` is
// read only by the target, and may differ from the first.
void k() {
  if (c) {
    ... // A
  }
  if (c) {
    ... // B
  }
}
