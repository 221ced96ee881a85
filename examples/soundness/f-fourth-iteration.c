// Class f (default bounds reach real loops), reference: a loop whose trip
// count is a kernel parameter.
void k(int n) {
  for (int i = 0; i < n; i++) {
    ... // A
  }
}
