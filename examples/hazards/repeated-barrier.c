// A barrier in a loop with per-thread trip counts, then a barrier after
// the loop: the thread that iterates once more waits again at A while the
// other already waits at B.
// Expected with more=1,0 in thread 0 and more=1,1,0 in thread 1: barrier
// divergence (thread 1 repeats A while thread 0 waits at B).
void kernel() {
  while (more) {
    __syncthreads();                 // A
  }
  __syncthreads();                   // B
}
