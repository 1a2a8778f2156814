//! Fuzz target `cassette`: see `tfwire_fuzzing::cassette` for the input layout and the
//! checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::cassette(data));
