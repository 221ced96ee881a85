// Plain C kernels in the shape of seed 000's examples: convergent
// operations inside ifs, loops, a switch and a goto. Compiled by clang-19
// (see README.md) into plain_O0.ll and, through opt-19, plain_O2.ll.
extern void op(void) __attribute__((convergent));
extern int c(void);

int shared_buf[64];

void if_then_else(int tid) {
  if (tid < 2) {
    op();
  } else {
    op();
  }
  op();
}

void loop_with_break(int n) {
  for (int i = 0; i < n; i++) {
    if (c())
      break;
    op();
  }
  op();
}

int switch_fallthrough(int v) {
  int acc = 0;
  switch (v) {
  case 0:
    op();
    acc += 1;
  case 1:
    acc += 2;
    break;
  case 7:
    op();
    return -1;
  default:
    acc = v * 3;
  }
  return acc;
}

void goto_cycle(void) {
again:
  op();
  if (c())
    goto again;
  op();
}

int arith(int a, unsigned b, long long w) {
  int x = (a << 3) ^ (int)(b >> 2);
  unsigned y = b / 3u + b % 5u;
  long long z = w - (long long)a * 7;
  short s = (short)z;
  int r = c() ? x : (int)y;
  shared_buf[a & 63] = r + s;
  return shared_buf[(a + 1) & 63] + (a > 0 && b != 0);
}

void nested_loops(int n, int m) {
  int i = 0;
  while (i < n) {
    int j = 0;
    do {
      op();
      j++;
    } while (j < m && !c());
    i++;
  }
}
