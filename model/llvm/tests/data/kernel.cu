// CUDA device code without the CUDA headers: the attributes and builtins
// that cuda_runtime.h would provide are declared here by hand. Compiled by
// clang-19 for sm_70 (see README.md) into kernel_cuda.ll.
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))

extern "C" __device__ void op(void) __attribute__((convergent));
extern "C" __device__ int c(void);

__device__ static inline unsigned tid_x(void) {
  return __nvvm_read_ptx_sreg_tid_x();
}

__shared__ int tile[128];

extern "C" __global__ void reduce(int *out, int n) {
  unsigned t = tid_x();
  tile[t] = (int)t;
  __syncthreads();
  for (unsigned s = 64; s > 0; s >>= 1) {
    if (t < s)
      tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[0] = tile[0];
}

extern "C" __global__ void divergent_exit(int n) {
  unsigned t = tid_x();
  for (int i = 0; i < n; i++) {
    if (t == (unsigned)i)
      break;
    op();
  }
  op();
  __nvvm_bar_sync(0);
}

extern "C" __device__ int helper(int x) {
  if (c())
    return x + 1;
  op();
  return x;
}

extern "C" __global__ void calls_helper(int *out) {
  out[tid_x()] = helper((int)tid_x());
}
