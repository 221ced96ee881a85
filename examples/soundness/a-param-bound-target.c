// Class a, target: after the first iteration, `A` is skipped.
void k(int n) {
  for (int i = 0; i < n; i++) {
    if (i < 1) {
      ... // A
    }
  }
}
