// Seed 002's before/after example as a kernel: pure register computation
// around a barrier.
// Expected: no race, no barrier divergence; branch-dist removes B.
void kernel() {
  int x = tid + 1;                   // add
  int y = x * 42;                    // mul
  __syncthreads();                   // B
  int z = y + x;                     // add2
}
