// Class c, reference: one test of the varying oracle `c` guards two
// observation points.
void k() {
  if (c) {
    ... // A
    ... // B
  }
}
