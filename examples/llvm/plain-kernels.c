// Plain C kernels that clang-19 and convcheck's kernel language both read,
// for the test that compares their semantics independently
// (model/llvm/tests/semantics.rs): each convergent operation is a call to
// an external convergent function named after its label, and every
// condition is a call to the external, non-convergent c() (an oracle in
// both readings). clang-19's output is model/llvm/tests/data/plain_kernels*.ll.
extern void A(void) __attribute__((convergent));
extern void B(void) __attribute__((convergent));
extern void C(void) __attribute__((convergent));
extern void D(void) __attribute__((convergent));
extern void E(void) __attribute__((convergent));
extern int c(void);

void if_else(void) {
  A();
  if (c()) {
    B();
  } else {
    C();
  }
  D();
}

void loop_nest(void) {
  A();
  do {
    do {
      B();
    } while (c());
    C();
  } while (c());
  D();
}

void loop_continue(void) {
  A();
  for (;;) {
    B();
    if (c())
      continue;
    C();
    if (c())
      continue;
    break;
  }
  D();
}

void divergent_exit(void) {
  A();
  for (;;) {
    B();
    if (c())
      break;
    C();
  }
  D();
}

void counted_loop(void) {
  for (int i = 0; i < 3; i++) {
    A();
    if (c())
      B();
  }
  C();
}

void switch_fallthrough(void) {
  switch (c()) {
  case 0:
    A();
  case 1:
    B();
    break;
  case 2:
    C();
    return;
  default:
    D();
  }
  E();
}

void nested_if(void) {
  if (c()) {
    if (c())
      A();
    B();
  }
  C();
}

void goto_forward(void) {
  A();
  if (c())
    goto skip;
  B();
skip:
  C();
}
