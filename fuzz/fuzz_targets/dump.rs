//! Fuzz target `dump`: see `tfwire_fuzzing::dump` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::dump(data));
