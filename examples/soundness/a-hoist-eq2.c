// Class a (integer values): both arms start with a ballot under
// `v == 2`. Hoisting it merges threads that disagree on `v == 2`; a
// checker that only tries v in {0, 1} never sees them disagree.
void k() {
  if (v == 2) {
    ballot();
    ... // T
  } else {
    ballot();
    ... // E
  }
}
