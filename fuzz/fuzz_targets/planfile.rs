//! Fuzz target `planfile`: see `tfwire_fuzzing::planfile` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::planfile(data));
