// The producer is a helper function: the write happens in the callee.
// Expected: no race, no barrier divergence. branch-dist with
// ignore-call-safety=1 (the default) does not see the write and removes B
// (then thread t+1's write of shared[t+1] races with thread t's read);
// with ignore-call-safety=0 the call counts as a read and a write and B
// stays.
void produce() {
  shared[tid] = tid;
}

void kernel() {
  produce();
  __syncthreads();                   // B
  int x = shared[(tid + 1) % N];     // consume
}
