//! Random kernels, CFGs and scenarios for convcheck (DESIGN.md section 3).
//!
//! Strategies for proptest, `quickcheck::Arbitrary` and
//! `arbitrary::Arbitrary` implementations live here, so that the fuzz
//! targets and the property tests share one generator.
