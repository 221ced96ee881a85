//! Arbitrary bytes as kernel text: parsing never panics, and whatever
//! parses prints back to the same tree (`oracles::parse_round_trip`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    convcheck_generators::oracles::parse_round_trip(data);
});
