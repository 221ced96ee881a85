// Class a (integer values), reference: a loop bound from a kernel
// parameter `n`. The target (a-param-bound-target.c) differs from the
// second iteration on, which `n` in {0, 1} never reaches.
void k(int n) {
  for (int i = 0; i < n; i++) {
    ... // A
  }
}
