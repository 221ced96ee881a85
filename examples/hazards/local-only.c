// Only local (per-thread) memory around the barrier: local memory never
// races.
// Expected: no race, no barrier divergence. branch-dist removes B (local
// accesses are ignored); branch-dist.count-local keeps it (a read and a
// write of local memory on both sides).
void kernel() {
  local[0] = local[0] + tid;         // acc
  __syncthreads();                   // B
  local[0] = local[0] * 2;           // scale
}
