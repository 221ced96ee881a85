// Block reduction of floats in shared memory with sequential addressing (the
// "reduction #3" of NVIDIA's reduction slides): each step halves the
// active threads, a barrier between steps. The loop bound comes from
// blockDim.x, so every thread runs the same number of iterations and
// every barrier is reached by the whole block.

#define BLOCK 256

__global__ void reduce_float(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
