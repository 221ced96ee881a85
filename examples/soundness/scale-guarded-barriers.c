// Scale: twenty straight-line guarded barriers (issue 10, must-show).
// The explicit engine enumerates 2^20 paths per thread; see
// docs/src/soundness.md for what it answers and how fast.
void k() {
  if (c0) ... // O0
  __syncthreads();
  if (c1) ... // O1
  __syncthreads();
  if (c2) ... // O2
  __syncthreads();
  if (c3) ... // O3
  __syncthreads();
  if (c4) ... // O4
  __syncthreads();
  if (c5) ... // O5
  __syncthreads();
  if (c6) ... // O6
  __syncthreads();
  if (c7) ... // O7
  __syncthreads();
  if (c8) ... // O8
  __syncthreads();
  if (c9) ... // O9
  __syncthreads();
  if (c10) ... // O10
  __syncthreads();
  if (c11) ... // O11
  __syncthreads();
  if (c12) ... // O12
  __syncthreads();
  if (c13) ... // O13
  __syncthreads();
  if (c14) ... // O14
  __syncthreads();
  if (c15) ... // O15
  __syncthreads();
  if (c16) ... // O16
  __syncthreads();
  if (c17) ... // O17
  __syncthreads();
  if (c18) ... // O18
  __syncthreads();
  if (c19) ... // O19
  __syncthreads();
}
