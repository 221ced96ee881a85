//! Theorems about the convcheck model, each discharged by bounded
//! exhaustion (or by z3) and each run as a test: see `tests/`.
