//! Every conformance vector cut short: a clean error for MessagePack (a cut value is never
//! mistaken for a whole one), and for JSON (where a cut can leave valid JSON, `123` → `12`)
//! never a panic, and the same outcome from both readers.
//!
//! Vectors up to 1 KiB are cut at every byte offset; the ~130 larger ones (up to 70 KiB,
//! where every offset would make the test quadratic) at every offset in their first and last
//! 64 bytes and at every 97th in between.

use crate::support::*;
use tfwire::{Config, Decoder, ErrorKind, Program, Type};

fn cuts(n: usize) -> impl Iterator<Item = usize> {
    (0..n).filter(move |&c| n <= 1024 || c < 64 || c + 64 > n || c % 97 == 0)
}

#[test]
fn msgpack_cut_anywhere_is_an_error() {
    let mut d = Decoder::new(Config::default());
    let mut count = 0;
    for v in vectors() {
        let Some(bytes) = &v.msgpack else { continue };
        let program = Program::compile(&Type::from_json(&v.ty).unwrap());
        let arena = bumpalo::Bump::new();
        // A few quirk vectors carry bytes after a complete value: cut exactly there, the
        // input *is* that complete value.
        let whole = match d.decode_msgpack(&program, bytes, &arena) {
            Err(e) if *e.kind() == ErrorKind::TrailingBytes => Some(e.offset()),
            _ => None,
        };
        for cut in cuts(bytes.len()).filter(|&c| Some(c) != whole) {
            let r = d.decode_msgpack(&program, &bytes[..cut], &arena);
            assert!(
                r.is_err(),
                "{} cut at {cut} decoded: {:?}",
                v.name,
                r.map(|x| tfwire::canonical::to_string(&x))
            );
            count += 1;
        }
    }
    assert!(count > 200_000, "{count} cuts");
}

#[test]
fn json_cut_anywhere_never_panics_and_both_readers_agree() {
    let mut d = Decoder::new(Config::default());
    for v in vectors() {
        let Some(text) = &v.json_text else { continue };
        let program = Program::compile(&Type::from_json(&v.ty).unwrap());
        let arena = bumpalo::Bump::new();
        for cut in cuts(text.len()) {
            let simd = d
                .decode_json(&program, &text[..cut], &arena)
                .map(|x| tfwire::canonical::to_string(&x));
            let scalar = d
                .decode_json_text(&program, &text[..cut], &arena)
                .map(|x| tfwire::canonical::to_string(&x));
            assert_eq!(
                simd.as_ref().map_err(|e| (e.kind().clone(), e.offset())),
                scalar.as_ref().map_err(|e| (e.kind().clone(), e.offset())),
                "{} cut at {cut}",
                v.name
            );
        }
    }
}
