//! Arbitrary bytes as the IR's text form: the reader never panics nor
//! overflows its stack (`convcheck_ir::parse::parse_never_panics`; seeded
//! under `cargo test` in `model/ir/tests/text_random.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    convcheck_ir::parse::parse_never_panics(data);
});
