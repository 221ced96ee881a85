// One bitonic sorting network over a 64-element shared array, 32 threads.
__global__ void bitonic(int *data) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = data[t];
  s[t + 32] = data[t + 32];
  __syncthreads();
  for (int k = 2; k <= 64; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      int i = 2 * t - (t & (j - 1));
      int p = i + j;
      int up = ((i & k) == 0);
      int a = s[i], b = s[p];
      if ((a > b) == up) { s[i] = b; s[p] = a; }
      __syncthreads();
    }
  }
  data[t] = s[t];
  data[t + 32] = s[t + 32];
}
