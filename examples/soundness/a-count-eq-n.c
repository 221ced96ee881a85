// Class a (integer values), reference: the result of
// `__syncthreads_count` compared with `N` (every thread voted).
void k() {
  int c = __syncthreads_count(p);
  if (c == N) {
    ... // ALL
  }
}
