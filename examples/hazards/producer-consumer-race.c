// Producer/consumer without the barrier: thread t+1's write of
// shared[t+1] and thread t's read of it are in the same phase.
// Expected: a race on shared[(t + 1) % N] between the write (line 6) and
// the read (line 7); no barrier divergence.
void kernel() {
  shared[tid] = tid;               // produce
  int x = shared[(tid + 1) % N];   // consume
}
