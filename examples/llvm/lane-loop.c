// The find-tid loop in plain C with the thread's lane read from a function
// rather than passed as a parameter: the kernel language reads a kernel's
// parameters as uniform (and one named `tid` as the thread index, which
// clang's output cannot express), while both readings take the result of
// an external call as a per-thread value. lane() is declared convergent
// because the kernel language reads a call outside a condition as a
// convergent operation: declared plainly, clang's output would read it as
// a value only, and convcheck would fall back to clang's own output as
// the reference (it says so in a note). So the kernel language's reading
// is the reference here, as for lane-loop.cu.
extern void op(void) __attribute__((convergent));
extern int lane(void) __attribute__((convergent));

void find_lane(void) {
  int me = lane();
  for (int i = 0; i < 8; i++) {
    if (i == me) {
      op();
      break;
    }
  }
}
