// Seed 001's grid-stride loop: each thread handles the elements tid,
// tid + stride, ... where stride is the number of threads in the grid, so
// the kernel works for any n larger than the hardware's parallelism.

__global__ void grid_stride(const int *A, const int *B, int *C, int N) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = tid; i < N; i += stride) {
    C[i] = A[i] + B[i];
  }
}
