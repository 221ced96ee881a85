// The target of loads.c: the dead load dropped (allowed), slot 0 read before the barrier (a change of behaviour; unused, a race), a read moved before the write it should see.
void dead_load(int c) {
  if (c) { ballot(); }
}

void late_read(void) {
  shared[tid] = 1;
  int x = shared[0];
  __syncthreads();
  if (x) { ballot(); }
}

void read_own_write(void) {
  int x = shared[tid];
  shared[tid] = 1;
  if (x) { ballot(); }
}

void late_peek(void) {
  shared[tid] = 1;
  shared[0];
  __syncthreads();
  ballot();
}
