// Warp reduction with __shfl_down_sync: five shuffle steps, every lane of
// the warp in every step (the full mask), then lane 0 writes the warp's
// sum. The helper is a device function, inlined by opt.

__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void warp_reduce(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = warp_sum(in[i]);
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

// The same warp sum in one operation, __reduce_add_sync (redux.sync,
// sm_80), after a guard that is divergent when the block is not a
// multiple of the warp: every lane must still take part (the full mask),
// so the guard selects the value, not whether the lane reduces.
__global__ void warp_reduce_redux(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int s = __reduce_add_sync(0xffffffffu, v);
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = s;
}
