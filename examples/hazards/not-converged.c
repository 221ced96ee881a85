// Thread i reaches the barrier in iteration i of a uniform loop: every
// thread runs the same static barrier once, but in different iterations,
// so the instances are not converged.
// Expected with 2 threads: barrier divergence (not converged) at B.
void kernel() {
  for (int i = 0; i < N; i++) {
    if (tid == i) {
      __syncthreads();               // B
    }
  }
}
