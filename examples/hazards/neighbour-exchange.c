// Neighbour exchange: each thread updates its own slot, waits, then reads
// its left neighbour's. The barrier orders thread t's write of shared[t]
// before thread t+1's read of it. `shared[tid]` and `shared[tid - 1]` are
// different expressions but the same addresses across threads (seed 002,
// pitfall 1).
// Expected: no race, no barrier divergence; without the barrier, a race on
// shared[t] between thread t's write (line 10) and thread t+1's read
// (line 12).
void kernel() {
  shared[tid] = shared[tid] + 1;   // update
  __syncthreads();                 // B
  int left = shared[tid - 1];      // exchange
}
