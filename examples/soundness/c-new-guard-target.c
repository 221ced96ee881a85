// Class c, target: a new divergent guard `d` around the ballot. `d` is
// read only here; it must range over its values, not default to 0.
void k() {
  if (d) {
    ballot();
  } else {
    ballot();
  }
}
