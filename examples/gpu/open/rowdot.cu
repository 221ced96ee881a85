// Each thread accumulates a strided dot product in a float register.
__global__ void rowdot(int n, const float *a, const float *b, float *out) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += a[i] * b[i];
  out[threadIdx.x] = acc;
}
