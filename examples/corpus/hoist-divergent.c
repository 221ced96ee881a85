// SimplifyCFG hoisting: both arms start with the same convergent call.
// Under a divergent condition, hoisting it merges the two groups of
// threads into one.
void k() {
  ... // A
  if (c) {
    ballot();
    ... // T
  } else {
    ballot();
    ... // E
  }
  ... // D
}
