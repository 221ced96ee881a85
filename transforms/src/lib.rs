//! The compiler transforms convcheck checks: reference implementations of
//! LLVM passes, each beside known-unsafe variants that the checker must
//! catch. The passes arrive with the CFG level; this crate is their home.
