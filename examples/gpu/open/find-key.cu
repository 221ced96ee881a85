// Each warp iterates until any lane finds its key; lanes then agree on the winner.
__global__ void find_key(const int *keys, int n, int key, int *where) {
  int tid = threadIdx.x;
  int found = -1;
  for (int base = 0; base < n; base += 32) {
    int i = base + (tid & 31);
    int hit = (i < n) && keys[i] == key;
    unsigned m = __ballot_sync(0xffffffffu, hit);
    if (m) {
      found = base + __ffs(m) - 1;
      break;
    }
  }
  if ((tid & 31) == 0) where[tid >> 5] = found;
}
