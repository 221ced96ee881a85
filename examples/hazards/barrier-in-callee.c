// The barrier is in a helper: the helper alone has no memory access above
// or below it, but its caller writes before the call and reads after.
// Expected: no race, no barrier divergence.
void sync_all() {
  __syncthreads();                   // B
}

void kernel() {
  shared[tid] = shared[tid] + 1;     // update
  sync_all();
  int x = shared[(tid + 1) % N];     // consume
}
