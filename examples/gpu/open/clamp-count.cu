// Counts the values above a threshold in a block (float compare, ballot, popc).
__global__ void clamp_count(const float *x, float lo, float hi, float *y, int *count) {
  int t = threadIdx.x;
  float v = x[t];
  bool out = !(v >= lo && v <= hi);
  v = v < lo ? lo : (v > hi ? hi : v);
  y[t] = v;
  unsigned m = __ballot_sync(0xffffffffu, out);
  if ((t & 31) == 0) atomicAdd(count, __popc(m));
}
