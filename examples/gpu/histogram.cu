// Histogram with a privatized copy in shared memory: clear it, count with
// shared-memory atomics over a grid-stride loop, then add the block's
// counts to the global histogram with global atomics.

#define BINS 64

__global__ void histogram(const unsigned char *data, unsigned *hist, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&hist[b], local[b]);
}
