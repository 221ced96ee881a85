// The find-tid loop of llvm/llvm-project #180621 (and #164496) in CUDA:
// each thread leaves the loop in the iteration equal to its index, after a
// warp vote. Seed 000 keys the body of an iteration statement by its
// iteration, so no two threads vote together; clang's -O0 lowering puts
// the vote in the loop's exit path, where maximal convergence joins every
// thread that left (seed 000's divergent loop exit), so `check --frontend
// clang` reports clang's lowering violated against the source.
//
// find_tid_control is the control: every thread still in the loop votes in
// every iteration, before the exit test, so the threads of one iteration
// vote together at the source level and in every CFG: preserved.

__global__ void find_tid(int *out) {
  for (int i = 0; i < 8; i++) {
    if (i == threadIdx.x) {
      __ballot_sync(0xffffffff, 1);
      break;
    }
  }
}

__global__ void find_tid_control(int *out) {
  for (int i = 0; i < 8; i++) {
    __ballot_sync(0xffffffff, 1);
    if (i == threadIdx.x)
      break;
  }
}
