// Class b, target: one iteration fewer.
void k() {
  if (g) {
    for (int i = 0; i < 4; i++) {
      if (c) {
        ... // X
      }
    }
  }
}
