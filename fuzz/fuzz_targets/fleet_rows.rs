//! Fuzz target `fleet_rows`: see `tfwire_fuzzing::fleet_rows` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::fleet_rows(data));
