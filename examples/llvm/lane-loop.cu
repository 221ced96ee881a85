// The find-tid loop in CUDA (llvm/llvm-project #164496 and #180621): each
// thread of the warp leaves the loop in the iteration that equals its
// lane, after a warp-level operation. Read by the kernel language (the
// body of an iteration statement is keyed by its iteration, so no two
// threads are converged at the operation) and compiled by clang-19 for
// sm_70 (where the operation is already outside the cycle, in the loop's
// exit block).

__global__ void lane_sync(int *out) {
  for (int i = 0; i < 8; i++) {
    if (i == threadIdx.x) {
      __syncwarp();
      break;
    }
  }
}

__global__ void lane_ballot(int *out) {
  for (int i = 0; i < 8; i++) {
    if (i == threadIdx.x) {
      __ballot_sync(0xffffffff, 1);
      break;
    }
  }
}
