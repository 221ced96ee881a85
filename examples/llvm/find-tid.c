// The find-tid loop of llvm/llvm-project #164496 and #180621, in plain C
// the way LLVM's tests write convergent code: op() is convergent and the
// thread index is the parameter tid. Each thread calls op() in its own
// iteration (seed 000: the body of an iteration statement is keyed by the
// iteration), so no two threads call it together.
extern void op(void) __attribute__((convergent));

void find_tid(int tid) {
  for (int i = 0; i < 8; i++) {
    if (i == tid) {
      op();
      break;
    }
  }
}
