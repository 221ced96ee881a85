// Data-carrying barriers: their results depend on every thread's
// predicate. No memory is accessed.
// Expected with 4 threads: no race, no barrier divergence; `votes`
// observes 2 (threads 1 and 3), `all` 1, `any` 1 (thread 1).
void kernel() {
  int votes = __syncthreads_count(tid % 2);   // votes
  int all = __syncthreads_and(tid < N);       // all
  int any = __syncthreads_or(tid == 1);       // any
}
