//! Fuzz target `stream`: see `tfwire_fuzzing::stream` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::stream(data));
