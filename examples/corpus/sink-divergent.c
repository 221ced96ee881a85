// SimplifyCFG sinking: both arms end with the same convergent call.
// Sinking it into the join converges threads that were apart.
void k() {
  ... // A
  if (c) {
    ... // T
    ballot();
  } else {
    ... // E
    ballot();
  }
  ... // D
}
