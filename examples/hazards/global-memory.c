// Global memory: each thread writes its own slot (no race), then every
// thread writes global[N], past every thread's slot, in the same phase (a
// write-write race), then, after the barrier, reads its neighbour's slot
// (no race).
// Expected: races on global[N] only, between the writes of line 9; no
// barrier divergence.
void kernel() {
  global[tid] = tid;                 // own
  global[N] = tid;                   // same
  __syncthreads();                   // B
  int x = global[(tid + 1) % N];     // next
}
