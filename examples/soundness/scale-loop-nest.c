// Scale: a three-deep loop nest with a barrier, trip counts from kernel
// parameters (issue 10, must-show); see docs/src/soundness.md.
void k(int n, int m, int p) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) {
      for (int l = 0; l < p; l++) {
        shared[tid] = 1;
        __syncthreads();
        int x = shared[tid + 1];
      }
    }
  }
}
