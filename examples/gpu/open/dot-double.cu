// Dot product of floats accumulated in double, reduced in shared memory.
__global__ void dot(const float *a, const float *b, double *out) {
  __shared__ double s[4];
  int t = threadIdx.x;
  s[t] = (double)a[t] * (double)b[t];
  __syncthreads();
  if (t == 0) {
    double acc = 0.0;
    for (int i = 0; i < 4; i++) acc += s[i];
    atomicAdd(out, acc);
  }
}
