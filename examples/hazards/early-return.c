// A thread that returns early leaves the others waiting at the barrier.
// Expected with 2 threads: barrier divergence (thread 1 leaves after 0
// barriers while thread 0 waits at B).
void kernel() {
  if (tid == 1) {
    return;
  }
  __syncthreads();                   // B
}
