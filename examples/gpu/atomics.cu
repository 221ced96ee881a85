// Atomics beyond atomicAdd on ints: a lock-free maximum with a
// compare-and-swap loop (atomicCAS: LLVM's `cmpxchg`, its `{ i32, i1 }`
// result read by `extractvalue`), after which the warp votes on which
// threads raised the maximum; and a sum of floats with atomicAdd(float*)
// (`atomicrmw fadd`).

__global__ void cas_max(const int *in, int *out, unsigned *raised) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int old = *out;
  bool mine = false;
  while (old < v) {
    int seen = atomicCAS(out, old, v);
    if (seen == old) {
      mine = true;
      break;
    }
    old = seen;
  }
  unsigned who = __ballot_sync(0xffffffffu, mine);
  if (threadIdx.x == 0)
    raised[blockIdx.x] = who;
}

__global__ void float_sum(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0.0f)
    atomicAdd(out, v);
}
