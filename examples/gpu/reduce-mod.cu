// Seed 001's "highly divergent" reduction: interleaved addressing selects
// the active threads with tid % (2*s), so active threads become sparse;
// the barrier is outside the branch, reached by every thread in every
// step.

#define BLOCK 256

__global__ void reduce_mod(const int *in, int *out) {
  __shared__ int shared_data[BLOCK];
  unsigned tid = threadIdx.x;
  shared_data[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) { // Diverges every iteration
      shared_data[tid] += shared_data[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = shared_data[0];
}
