// Barriers in a uniform loop: write, barrier, read the neighbour, barrier.
// B2 protects the next iteration's write against this iteration's read.
// Expected: no race, no barrier divergence (2 iterations, 4 barriers per
// thread).
void kernel() {
  for (int i = 0; i < 2; i++) {
    shared[tid] = i;                 // put
    __syncthreads();                 // B1
    int x = shared[(tid + 1) % N];   // get
    __syncthreads();                 // B2
  }
}
