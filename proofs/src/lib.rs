//! Theorems about the convcheck model, each discharged by bounded
//! exhaustion (or by z3) and each run as a test in `tests/`:
//!
//! - `tests/keys.rs`: with a real cycle hierarchy, maximal-convergence keys
//!   never converge a thread with itself and keep convergence-before
//!   acyclic, on every CFG of four blocks under every hierarchy; and the
//!   property fails when a nested cycle is left out of the hierarchy, so
//!   the theorem is not vacuous.
