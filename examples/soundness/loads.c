// A load whose value nothing uses is not an observable event; races still count (docs/src/soundness.md, "Loads").
// Target: loads-target.c. Checked by checker/tests/loads.rs.
void dead_load(int c) {
  shared[tid];
  if (c) { ballot(); }
}

void late_read(void) {
  shared[tid] = 1;
  __syncthreads();
  int x = shared[0];
  if (x) { ballot(); }
}

void read_own_write(void) {
  shared[tid] = 1;
  int x = shared[tid];
  if (x) { ballot(); }
}

void late_peek(void) {
  shared[tid] = 1;
  __syncthreads();
  shared[0];
  ballot();
}
