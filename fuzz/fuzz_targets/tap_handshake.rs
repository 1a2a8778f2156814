//! Fuzz target `tap_handshake`: see `tfwire_fuzzing::tap_handshake` for the input layout and
//! the checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::tap_handshake(data));
