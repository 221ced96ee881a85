// OpenCL C 2.0 kernels for amdgcn (gfx900). Compiled by clang-19 with the
// default OpenCL header (see README.md) into kernel_amdgcn.ll.
void op(void) __attribute__((convergent));
int c(void);

kernel void reduce(global int *out, local int *scratch) {
  size_t t = get_local_id(0);
  scratch[t] = (int)t;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] += scratch[t + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0)
    out[get_group_id(0)] = scratch[0];
}

kernel void loop_exit(global int *out, int n) {
  int t = (int)get_local_id(0);
  int i = 0;
  for (; i < n; i++) {
    if (t == i)
      break;
    op();
  }
  op();
  out[t] = i;
}

int helper(int x) {
  switch (x & 3) {
  case 0:
    return c();
  case 1:
    op();
    return 1;
  default:
    return x;
  }
}

kernel void calls_helper(global int *out) {
  out[get_global_id(0)] = helper((int)get_local_id(0));
}
