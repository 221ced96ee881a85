// A warp searches 32 elements per iteration and leaves the loop together
// as soon as a ballot sees a match: the exit condition is the ballot's
// result, the same in every lane, so the whole warp leaves in the same
// iteration and lane 0 reports the first match.

__global__ void early_exit(const int *data, int *found, int n) {
  int lane = threadIdx.x & 31;
  for (int base = 0; base < n; base += 32) {
    int hit = data[base + lane] == 42;
    unsigned m = __ballot_sync(0xffffffff, hit);
    if (m != 0) {
      if (lane == 0)
        *found = base + __ffs(m) - 1;
      return;
    }
  }
}
