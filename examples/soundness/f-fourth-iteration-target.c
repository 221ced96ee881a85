// Class f, target: the fourth iteration (i == 3) skips `A`.
void k(int n) {
  for (int i = 0; i < n; i++) {
    if (i != 3) {
      ... // A
    }
  }
}
