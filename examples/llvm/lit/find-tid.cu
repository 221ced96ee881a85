// The find-tid loop of LLVM #180621 as a CUDA test with RUN lines: clang's
// own -O0 lowering is violated against the source (the threads that leave
// the loop vote together in its exit path), and the control is preserved
// through default<O2>. `not` expects convcheck's exit code 1.
//
// RUN: not convcheck check %s --frontend clang --opt O2 --function find_tid --threads 4 | FileCheck %s --check-prefix=TID
// RUN: convcheck check %s --frontend clang --opt O2 --function find_tid_control --threads 4 | FileCheck %s --check-prefix=CONTROL
//
// TID: stage 1: clang -O0: VIOLATED
// TID: note: reference: the source level of {{.*}}find-tid.cu
// TID: convergence at `__ballot_sync` (line [[@LINE+10]])
// TID: verdict: violated (first at stage 1: clang -O0)
//
// CONTROL: stage 1: clang -O0: preserved
// CONTROL-NOT: VIOLATED
// CONTROL: verdict: preserved

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
