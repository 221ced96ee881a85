// Class c (a read only the target makes is free), reference: one ballot
// that every thread reaches together.
void k() {
  ballot();
}
