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
