// Class g (no false alarm), reference: oracles are named by what they
// are, so moving the code (g-shifted-target.c) renames nothing.
void k() {
  int x = shared[tid];
  for (...) {
    ... // A
  }
}
