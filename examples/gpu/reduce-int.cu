// Block reduction of ints in shared memory with sequential addressing (the
// "reduction #3" of NVIDIA's reduction slides): each step halves the
// active threads, a barrier between steps. The loop bound comes from
// blockDim.x, so every thread runs the same number of iterations and
// every barrier is reached by the whole block.

#define BLOCK 256

__global__ void reduce_int(const int *in, int *out, int n) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
