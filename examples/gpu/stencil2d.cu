// 2-D five-point stencil with a shared-memory tile and a one-cell halo:
// the block's threads load the tile, the edge threads also load the halo,
// a barrier, then each interior point averages its neighbours.

#define BX 16
#define BY 16

__global__ void stencil2d(const float *in, float *out, int w, int h) {
  __shared__ float tile[BY + 2][BX + 2];
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  if (x < w && y < h) {
    tile[ty][tx] = in[y * w + x];
    if (threadIdx.x == 0 && x > 0)
      tile[ty][0] = in[y * w + x - 1];
    if (threadIdx.x == BX - 1 && x < w - 1)
      tile[ty][BX + 1] = in[y * w + x + 1];
    if (threadIdx.y == 0 && y > 0)
      tile[0][tx] = in[(y - 1) * w + x];
    if (threadIdx.y == BY - 1 && y < h - 1)
      tile[BY + 1][tx] = in[(y + 1) * w + x];
  }
  __syncthreads();
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
    out[y * w + x] = 0.25f * (tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx]);
}
