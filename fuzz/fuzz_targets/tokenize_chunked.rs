//! Fuzz target `tokenize_chunked`: see `tfwire_fuzzing::tokenize_chunked` for the input layout and the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::tokenize_chunked(data));
