void crosslane_operation (unsigned long mask) __attribute__(("convergent"));

void bar(unsigned long mask) {
  convergent_func(mask);
}

void foo() {
  ...
  auto mask = ...;

  if (cond)
    bar(mask); // B
  else
    bar(mask); // C
}
