// Row maximum of a warp's values with a butterfly of __shfl_xor_sync on floats.
__global__ void row_max(const float *x, float *out) {
  int lane = threadIdx.x & 31;
  float m = x[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (lane == 0) out[threadIdx.x >> 5] = m;
}
