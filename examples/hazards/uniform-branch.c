// A barrier under a uniform branch: every thread takes the same side.
// Expected: no barrier divergence and no race whatever `go` is (it is
// uniform, so all threads read the same value).
void kernel() {
  shared[tid] = tid;
  if (uniform(go)) {
    __syncthreads();                 // B
    int x = shared[(tid + 1) % N];
  }
}
