// Producer/consumer through shared memory, with a barrier: every thread
// writes its own slot, waits, then reads its right neighbour's slot.
// Expected: no race, no barrier divergence.
void kernel() {
  shared[tid] = tid;               // produce
  __syncthreads();                 // B
  int x = shared[(tid + 1) % N];   // consume
}
