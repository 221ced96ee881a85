// Class b (cut paths are not examined paths), reference: a fixed-count
// loop of five iterations whose body reads an oracle, behind an oracle
// guard. The target (b-fixed-loop-target.c) runs four iterations.
void k() {
  if (g) {
    for (int i = 0; i < 5; i++) {
      if (c) {
        ... // X
      }
    }
  }
}
