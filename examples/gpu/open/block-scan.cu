// Warp inclusive scan with __shfl_up_sync, then a block-level carry via shared memory.
__global__ void block_scan(const int *in, int *out) {
  __shared__ int warp_sums[32];
  int tid = threadIdx.x;
  int lane = tid & 31;
  int warp = tid >> 5;
  int v = in[blockIdx.x * blockDim.x + tid];
  for (int d = 1; d < 32; d <<= 1) {
    int n = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += n;
  }
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int s = (lane < (blockDim.x >> 5)) ? warp_sums[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      int n = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s += n;
    }
    warp_sums[lane] = s;
  }
  __syncthreads();
  if (warp > 0) v += warp_sums[warp - 1];
  out[blockIdx.x * blockDim.x + tid] = v;
}
