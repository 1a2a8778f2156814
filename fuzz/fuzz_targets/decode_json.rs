//! Fuzz target `decode_json`: see `tfwire_fuzzing::decode_json` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::decode_json(data));
