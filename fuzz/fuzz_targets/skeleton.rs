//! Fuzz target `skeleton`: see `tfwire_fuzzing::skeleton` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::skeleton(data));
