// HIP wave vote on a 64-wide AMD wave: a ballot of the threads whose
// element passes the test, any/all votes on the same predicate, and the
// first lane of each wave writing the wave's count.

__global__ void wave_vote(const int *in, int *count, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int pass = i < n && in[i] > 0;
  unsigned long long b = __ballot(pass);
  int any = __any(pass);
  int all = __all(pass);
  if (threadIdx.x % warpSize == 0) {
    count[i / warpSize] = __popcll(b);
    flags[i / warpSize] = any + 2 * all;
  }
}
