// Regression: found by `convcheck fuzz --pass simplifycfg --seed 1`
// (program 3203, minimized from 26 to 11 statements). SimplifyCFG's hoist
// step took the two `__syncthreads()` calls O4 and O7 for identical
// instructions and merged them, so a thread that used to execute O7
// executed O4 instead (single-thread behaviour changed). Hoisting now also
// requires equal operation labels.
void kernel() {
  int i1 = 0;
  for (;;) {
    if (uniform(u2))
      break;
    for (i1 = 0; i1 < 1; i1 += 1) {
      __syncthreads(); // O4
    }
    __syncthreads(); // O7
  }
}
