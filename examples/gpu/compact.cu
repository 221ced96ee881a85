// Warp-level stream compaction: a ballot of the elements to keep, lane 0
// reserves room for the warp with one atomicAdd of the ballot's
// population count, a shuffle broadcasts the base, and each kept element
// goes to the base plus the number of kept lanes below it.

__global__ void compact(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int keep = i < n && in[i] > 0;
  unsigned mask = __ballot_sync(0xffffffff, keep);
  int base = 0;
  if (lane == 0)
    base = atomicAdd(count, __popc(mask));
  base = __shfl_sync(0xffffffff, base, 0);
  if (keep)
    out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
}
