//! Fuzz target `msgpack_vs_json`: see `tfwire_fuzzing::msgpack_vs_json` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::msgpack_vs_json(data));
