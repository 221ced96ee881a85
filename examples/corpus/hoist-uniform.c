// The same as hoist-divergent.c under a uniform condition: every thread
// takes the same arm, so hoisting the call changes nothing.
void k() {
  ... // A
  if (uniform(c)) {
    ballot();
    ... // T
  } else {
    ballot();
    ... // E
  }
  ... // D
}
