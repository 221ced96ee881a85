// Class e (any pair of thread ids): the branch diverges only in groups of
// at least three threads, between thread 2 and the others.
void k() {
  if (tid == 2) {
    ballot();
    ... // T
  } else {
    ballot();
    ... // E
  }
}
