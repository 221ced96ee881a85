// Inclusive scan of one block (Hillis and Steele, double-buffered in
// shared memory, as in GPU Gems 3, chapter 39): log2(n) steps, a barrier
// after each; threads below `offset` copy, the others add.

#define BLOCK 256

__global__ void scan(const int *in, int *out, int n) {
  __shared__ int temp[2 * BLOCK];
  int tid = threadIdx.x;
  int pout = 0, pin = 1;
  temp[tid] = tid < n ? in[tid] : 0;
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      temp[pout * BLOCK + tid] = temp[pin * BLOCK + tid] + temp[pin * BLOCK + tid - offset];
    else
      temp[pout * BLOCK + tid] = temp[pin * BLOCK + tid];
    __syncthreads();
  }
  if (tid < n)
    out[tid] = temp[pout * BLOCK + tid];
}
