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

// __match_all_sync (llvm.nvvm.match.all.sync.i32p: the mask of the lanes
// if all passed the same key, else 0, and that predicate through a
// pointer), and the first float written to an empty slot with atomicCAS on
// the float's bits (clang exchanges floats as integers: `bitcast`), then a
// ballot of the threads whose exchange succeeded.
__global__ void match_all(const int *keys, unsigned *out) {
  int key = keys[blockIdx.x * blockDim.x + threadIdx.x];
  int same;
  unsigned mask = __match_all_sync(0xffffffffu, key, &same);
  out[blockIdx.x * blockDim.x + threadIdx.x] = same ? mask : 0xdeadu;
}

__global__ void float_claim(const float *in, float *slot, unsigned *won) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int seen = atomicCAS((int *)slot, __builtin_bit_cast(int, 0.0f), __builtin_bit_cast(int, v));
  unsigned who = __ballot_sync(0xffffffffu, seen == 0);
  if (threadIdx.x == 0)
    won[blockIdx.x] = who;
}
