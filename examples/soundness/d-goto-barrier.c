// Class d (hazards judged per scenario): a producer/consumer barrier,
// then a barrier inside a goto cycle (implementation-defined convergence).
// The goto cycle must not make the reference count as hazardous: the
// documented branch-dist removes the producer/consumer barrier, which
// races, and the source reference must see it.
void k() {
  shared[tid] = tid;               // produce
  __syncthreads();                 // B
  int x = shared[(tid + 1) % N];   // consume
again:
  __syncthreads();                 // L
  if (c) goto again;
}
