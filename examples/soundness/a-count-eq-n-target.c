// Class a, target: `ALL` dropped, which only a count equal to the group
// size (2 or more) shows.
void k() {
  int c = __syncthreads_count(p);
}
