//! Arbitrary bytes as LLVM IR text: the reader, the mapping to the IR, the
//! static token rules and the writer never panic, and what is written reads
//! back to the same CFG (`convcheck_llvm::map_never_panics`; seeded under
//! `cargo test` in `model/llvm/tests/robustness.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    convcheck_llvm::map_never_panics(data);
});
