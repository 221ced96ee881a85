// A barrier in a loop whose trip count varies per thread (`more` is a
// varying oracle): a thread that leaves the loop early leaves the others
// waiting at the barrier.
// Expected with more=1,0 in thread 0 and more=1,1,0 in thread 1: barrier
// divergence (thread 0 leaves after 1 barrier while thread 1 waits at B).
void kernel() {
  while (more) {
    __syncthreads();                 // B
  }
}
