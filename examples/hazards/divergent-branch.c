// A barrier under a divergent branch: only thread 0 reaches it.
// Expected with 2 or more threads: barrier divergence (every other thread
// leaves after 0 barriers while thread 0 waits at B); no race.
void kernel() {
  shared[tid] = tid;
  if (tid == 0) {
    __syncthreads();                 // B
  }
}
