// Two consecutive barriers between a write and a write of another
// thread's slot. Either barrier alone separates the writes; each, taken
// on its own, has nothing on one side (the other barrier is in the way).
// Expected: no race, no barrier divergence; without both barriers a
// write-write race on shared[t].
void kernel() {
  shared[tid] = 1;                   // first
  __syncthreads();                   // B1
  __syncthreads();                   // B2
  shared[(tid + 1) % N] = 2;         // second
}
