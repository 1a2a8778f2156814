//! Fuzz target `decode_msgpack`: see `tfwire_fuzzing::decode_msgpack` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::decode_msgpack(data));
