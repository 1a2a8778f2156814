//! The tokenizer targets: `tokenize` and `tokenize_chunked`.

use crate::input::{read_cuts, split_points};
use tfwire_msgpack::{Error, ErrorKind, Kind, Span, Token, Tokenizer, read_header};

/// The tokens of `data` read one after another, and the error that stopped them (`None`
/// when every byte was read).
type Tokens = (Vec<Token>, Option<Error>);

/// Checks the tokenizer on any bytes (see the crate documentation).
pub fn tokenize(data: &[u8]) {
    let (tokens, end) = tokens_of(data);
    check_tokens(data, &tokens, end);

    // The iterator yields the same, and stops after an error.
    let iterated: Vec<Result<Token, Error>> = Tokenizer::new(data).collect();
    let expected: Vec<Result<Token, Error>> =
        tokens.iter().copied().map(Ok).chain(end.map(Err)).collect();
    assert_same_results(&iterated, &expected, "the iterator");

    // Offsets from a base are shifted, payloads unchanged.
    let base = 1 << 20;
    let mut t = Tokenizer::with_base(data, base);
    for tok in &tokens {
        let peeked = t
            .peek_token()
            .expect("peek_token reads what next_token read");
        let shifted = t.next_token().expect("with_base reads what new read");
        assert_same_token(&peeked, &shifted, "peek_token and next_token");
        assert_eq!(
            shifted.span,
            Span::new(tok.span.start + base, tok.span.end + base)
        );
        assert_eq!(
            t.payload(&shifted),
            &data[tok.payload().start..tok.payload().end]
        );
    }
    if let Some(e) = end {
        let err = t.next_token().expect_err("with_base fails where new fails");
        assert_eq!((err.kind, err.offset), (e.kind, e.offset + base));
    }

    // `skip_value`, from a sample of token starts, agrees with walking the tokens.
    let n = tokens.len();
    let step = (n / 16).max(1);
    for i in (0..n.min(16)).chain((16..=n).step_by(step)).chain([n]) {
        let start = tokens
            .get(i)
            .map_or_else(|| end_of(&tokens), |t| t.span.start);
        let mut t = Tokenizer::with_position(data, start);
        let skipped = t.skip_value();
        let walked = walk(&tokens, end, i, data.len());
        assert_eq!(skipped, walked, "skip_value from byte {start}");
        match skipped {
            Ok(span) => assert_eq!(t.position(), span.end),
            Err(_) => assert_eq!(t.position(), start, "skip_value restores its position"),
        }
        let mut pending = 1;
        let mut t = Tokenizer::with_position(data, start);
        match t.skip_pending(&mut pending) {
            Ok(()) => assert_eq!(Ok(Span::new(start, t.position())), walked),
            Err(e) => {
                assert_eq!(Err(e), walked, "skip_pending from byte {start}");
                assert!(pending > 0);
            }
        }
    }
}

/// Checks chunked tokenizing: a cuts section, then MessagePack bytes.
pub fn tokenize_chunked(data: &[u8]) {
    let (cuts, body) = read_cuts(data);
    let cuts = split_points(&cuts, body.len());
    let whole = tokens_of(body);
    let by_prefixes = tokens_by_prefixes(body, &cuts, &whole);
    assert_same_tokens(&by_prefixes, &whole, "resuming on longer prefixes");
    let by_chunks = tokens_by_chunks(body, &cuts);
    assert_same_tokens(&by_chunks, &whole, "assembling tokens across chunks");

    // Values skipped one after another: `skip_pending` resumed on longer prefixes skips what
    // `skip_value` skips in the whole buffer, and fails with the same error.
    let mut t = Tokenizer::new(body);
    let mut spans = Vec::new();
    let whole_end = loop {
        if t.is_empty() {
            break None;
        }
        match t.skip_value() {
            Ok(span) => spans.push(span),
            Err(e) => break Some(e),
        }
    };
    let mut bounds = cuts.iter().copied().chain([body.len()]);
    let mut avail = bounds.next().unwrap_or(body.len());
    let (mut pos, mut start, mut pending) = (0, 0, 1);
    let mut resumed = Vec::new();
    let resumed_end = loop {
        if pos == body.len() && pending == 1 {
            break None;
        }
        let mut t = Tokenizer::with_position(&body[..avail], pos);
        match t.skip_pending(&mut pending) {
            Ok(()) => {
                resumed.push(Span::new(start, t.position()));
                (pos, start, pending) = (t.position(), t.position(), 1);
            }
            Err(e) if e.is_incomplete() && avail < body.len() => {
                assert_eq!(
                    e.offset,
                    t.position(),
                    "skip_pending stops at a token start"
                );
                pos = t.position();
                avail = bounds.next().unwrap_or(body.len());
            }
            Err(e) => break Some(e),
        }
    };
    assert_eq!(
        resumed, spans,
        "values skipped with skip_pending on prefixes"
    );
    assert_eq!(resumed_end, whole_end, "the error skip_pending ends with");
}

/// Reads every token of `data`.
fn tokens_of(data: &[u8]) -> Tokens {
    let mut t = Tokenizer::new(data);
    let mut tokens = Vec::new();
    while !t.is_empty() {
        let before = t.position();
        match t.next_token() {
            Ok(tok) => tokens.push(tok),
            Err(e) => {
                assert_eq!(t.position(), before, "a failed read does not move");
                return (tokens, Some(e));
            }
        }
    }
    (tokens, None)
}

/// Where reading stopped: after the last token.
fn end_of(tokens: &[Token]) -> usize {
    tokens.last().map_or(0, |t| t.span.end)
}

fn check_tokens(data: &[u8], tokens: &[Token], end: Option<Error>) {
    let mut at = 0;
    for t in tokens {
        assert_eq!(t.span.start, at, "tokens are contiguous");
        assert!(t.span.end <= data.len(), "token {t:?} ends past the input");
        assert!(t.span.start < t.span.end, "empty token {t:?}");
        assert_eq!(t.marker, data[at], "the marker byte");
        let h = read_header(&data[at..]).expect("read_header reads a token's header");
        assert_eq!(key(h.kind), key(t.kind), "read_header's kind");
        assert_eq!(h.len, t.header_len);
        assert_eq!(
            t.span.len(),
            usize::from(t.header_len) + t.kind.payload_len() as usize,
            "span = header + payload"
        );
        assert_eq!(t.format(), tfwire_msgpack::Format::of(t.marker));
        at = t.span.end;
    }
    let Some(e) = end else {
        assert_eq!(at, data.len(), "no error: every byte read");
        return;
    };
    assert_eq!(e.offset, at, "the error is at the token that failed");
    let rest = &data[at..];
    match e.kind {
        ErrorKind::Incomplete { needed } => {
            assert!(needed >= 1);
            let want = match read_header(rest) {
                Ok(h) => usize::from(h.len) + h.kind.payload_len() as usize - rest.len(),
                Err(ErrorKind::Incomplete { needed }) => needed,
                Err(k) => panic!("{k:?}: 0xc1 reported as incomplete"),
            };
            assert_eq!(needed, want, "bytes needed at {at}");
        }
        ErrorKind::ReservedMarker => assert_eq!(rest.first(), Some(&0xc1)),
        k => panic!("unexpected tokenizer error {k:?}"),
    }
}

/// What `skip_value` must give from token `i` (or from the end of the tokens): the span up
/// to the token that completes the value, or the error the tokens ended with.
fn walk(tokens: &[Token], end: Option<Error>, i: usize, len: usize) -> Result<Span, Error> {
    let start = tokens
        .get(i)
        .map_or_else(|| end_of(tokens), |t| t.span.start);
    let mut pending: u64 = 1;
    let mut j = i;
    while pending > 0 {
        let Some(t) = tokens.get(j) else {
            return Err(end.unwrap_or(Error {
                kind: ErrorKind::Incomplete { needed: 1 },
                offset: len,
            }));
        };
        pending = pending - 1 + t.min_remaining();
        j += 1;
    }
    let span = Span::new(start, tokens[j - 1].span.end);
    // `min_remaining` is a lower bound on what a complete value holds after each header.
    for t in &tokens[i..j] {
        assert!(
            t.min_remaining() <= (span.end - t.span.end) as u64,
            "min_remaining of {t:?} exceeds what its complete value holds"
        );
    }
    Ok(span)
}

/// Tokens read by a reader that has `body[..cut]` at first and resumes at the same position
/// on the next longer prefix whenever a token is incomplete.
fn tokens_by_prefixes(body: &[u8], cuts: &[usize], whole: &Tokens) -> Tokens {
    let mut bounds = cuts.iter().copied().chain([body.len()]);
    let mut avail = bounds.next().unwrap_or(body.len());
    let mut pos = 0;
    let mut out = Vec::new();
    while pos < body.len() {
        let mut t = Tokenizer::with_position(&body[..avail], pos);
        match t.next_token() {
            Ok(tok) => {
                out.push(tok);
                pos = t.position();
            }
            Err(e) if e.is_incomplete() && avail < body.len() => {
                assert_eq!((e.offset, t.position()), (pos, pos));
                let ErrorKind::Incomplete { needed } = e.kind else {
                    unreachable!()
                };
                // The shortfall never overstates what the whole buffer shows, and is exact
                // once the header is complete.
                let full_end = match (whole.0.get(out.len()), whole.1) {
                    (Some(tok), _) => Some(tok.span.end),
                    (None, Some(e)) if e.is_incomplete() => {
                        let ErrorKind::Incomplete { needed } = e.kind else {
                            unreachable!()
                        };
                        Some(body.len() + needed)
                    }
                    (None, Some(_)) => {
                        // A reserved marker: the prefix ends before it.
                        assert_eq!((avail, needed), (pos, 1), "prefix before 0xc1");
                        None
                    }
                    (None, None) => panic!("prefix incomplete at {pos}, whole buffer fine"),
                };
                if let Some(full_end) = full_end {
                    assert!(avail + needed <= full_end, "needed {needed} at {pos}");
                    if read_header(&body[pos..avail]).is_ok() {
                        assert_eq!(avail + needed, full_end, "needed {needed} at {pos}");
                    }
                }
                avail = bounds.next().unwrap_or(body.len());
            }
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

/// Tokens read chunk by chunk (each chunk its own slice, offsets from `with_base`), a token
/// that spans chunks assembled with `read_header` telling how long it is.
fn tokens_by_chunks(body: &[u8], cuts: &[usize]) -> Tokens {
    let mut out = Vec::new();
    let mut carry: Vec<u8> = Vec::new();
    let mut carry_start = 0;
    let mut base = 0;
    for end in cuts.iter().copied().chain([body.len()]) {
        let chunk = &body[base..end];
        let mut p = 0;
        if !carry.is_empty() {
            loop {
                let total = match read_header(&carry) {
                    Ok(h) => usize::from(h.len) + h.kind.payload_len() as usize,
                    Err(ErrorKind::Incomplete { needed }) => carry.len() + needed,
                    Err(k) => panic!("{k:?}: carried a reserved marker"),
                };
                let missing = total - carry.len();
                if missing == 0 || p == chunk.len() {
                    break;
                }
                let take = missing.min(chunk.len() - p);
                carry.extend_from_slice(&chunk[p..p + take]);
                p += take;
            }
            let mut t = Tokenizer::with_base(&carry, carry_start);
            if let Ok(tok) = t.next_token() {
                assert!(t.is_empty(), "an assembled token is exactly its bytes");
                out.push(tok);
                carry.clear();
            }
        }
        if carry.is_empty() {
            while p < chunk.len() {
                let mut t = Tokenizer::with_base(&chunk[p..], base + p);
                match t.next_token() {
                    Ok(tok) => {
                        assert_eq!(tok.span.start, base + p);
                        out.push(tok);
                        p += tok.span.len();
                    }
                    Err(e) if e.is_incomplete() => {
                        carry_start = base + p;
                        carry.extend_from_slice(&chunk[p..]);
                        p = chunk.len();
                    }
                    Err(e) => return (out, Some(e)),
                }
            }
        }
        base = end;
    }
    if carry.is_empty() {
        (out, None)
    } else {
        let err = Tokenizer::with_base(&carry, carry_start)
            .next_token()
            .expect_err("a token still being assembled at the end is incomplete");
        (out, Some(err))
    }
}

/// A comparable form of a kind (floats by their bits, so that NaN equals itself).
fn key(k: Kind) -> (u8, u64, u64) {
    match k {
        Kind::Nil => (0, 0, 0),
        Kind::Bool(b) => (1, u64::from(b), 0),
        Kind::Uint(n) => (2, n, 0),
        Kind::Int(n) => (3, n as u64, 0),
        Kind::F32(f) => (4, u64::from(f.to_bits()), 0),
        Kind::F64(f) => (5, f.to_bits(), 0),
        Kind::Str(n) => (6, u64::from(n), 0),
        Kind::Bin(n) => (7, u64::from(n), 0),
        Kind::Array(n) => (8, u64::from(n), 0),
        Kind::Map(n) => (9, u64::from(n), 0),
        Kind::Ext(t, n) => (10, t as u8 as u64, u64::from(n)),
    }
}

fn same_token(a: &Token, b: &Token) -> bool {
    key(a.kind) == key(b.kind)
        && (a.marker, a.header_len, a.span) == (b.marker, b.header_len, b.span)
}

fn assert_same_token(a: &Token, b: &Token, what: &str) {
    assert!(same_token(a, b), "{what}: {a:?} != {b:?}");
}

fn assert_same_results(a: &[Result<Token, Error>], b: &[Result<Token, Error>], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: {a:?} != {b:?}");
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (Ok(x), Ok(y)) => assert_same_token(x, y, what),
            (Err(x), Err(y)) => assert_eq!(x, y, "{what}"),
            _ => panic!("{what}: {x:?} != {y:?}"),
        }
    }
}

fn assert_same_tokens(got: &Tokens, want: &Tokens, what: &str) {
    assert_eq!(got.0.len(), want.0.len(), "{what}: {got:?} != {want:?}");
    for (x, y) in got.0.iter().zip(&want.0) {
        assert_same_token(x, y, what);
    }
    assert_eq!(got.1, want.1, "{what}: the final error");
}
