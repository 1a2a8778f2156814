//! Fuzz target `tap_frames`: see `tfwire_fuzzing::tap_frames` for the input layout and the
//! checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfwire_fuzzing::tap_frames(data));
