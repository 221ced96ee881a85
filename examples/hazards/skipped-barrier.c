// Thread 0 runs an extra barrier A before the common barrier B: the
// others skip A and wait at B while thread 0 waits at A.
// Expected: barrier divergence (thread t skips A).
void kernel() {
  if (tid == 0) {
    __syncthreads();                 // A
  }
  __syncthreads();                   // B
}
