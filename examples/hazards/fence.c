// A fence instead of a barrier: it orders this thread's accesses but does
// not make other threads wait, so it does not separate phases.
// Expected: a race on shared[(t + 1) % N] between the write (line 6) and
// the read (line 8); no barrier divergence.
void kernel() {
  shared[tid] = tid;                 // produce
  __threadfence();                   // F
  int x = shared[(tid + 1) % N];     // consume
}
