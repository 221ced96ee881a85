// Both sides of a divergent branch have a barrier: two different static
// barriers, so the threads do not wait at the same one.
// Expected: barrier divergence (thread 1 waits at B while thread 0 waits
// at A).
void kernel() {
  if (tid == 0) {
    __syncthreads();                 // A
  } else {
    __syncthreads();                 // B
  }
}
