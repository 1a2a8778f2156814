//! Fuzz target `plan`: see `tfwire_fuzzing::plan` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::plan(data));
