// Class g, target: the same kernel, shifted down by two lines.


void k() {
  int x = shared[tid];
  for (...) {
    ... // A
  }
}
