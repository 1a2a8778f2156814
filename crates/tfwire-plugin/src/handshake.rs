//! go-plugin's handshake line: what a plugin prints on its standard output to tell the client
//! where it listens.
//!
//! ```text
//! CORE-PROTOCOL-VERSION|APP-PROTOCOL-VERSION|NETWORK-TYPE|NETWORK-ADDR|PROTOCOL|SERVER-CERT
//! 1|6|unix|/tmp/plugin123/plugin.sock|grpc|MIIB…
//! ```
//!
//! The core protocol version is 1. The application protocol version is the plugin protocol's
//! major version (5 or 6). With AutoMTLS (the client set `PLUGIN_CLIENT_CERT`), the last field
//! is the server's certificate, its DER in standard base64 *without padding*; otherwise it is
//! empty (older plugins print five fields). A proxy reads the provider's line, and prints its
//! own with its own address and certificate.
//!
//! The line is read with a bound: [`LineReader`] takes what the plugin prints, chunk by chunk,
//! and gives up at [`MAX_LINE_BYTES`] (64 KiB) without a newline, as go-plugin's client does
//! (its `bufio.Scanner` has the same default limit), so a plugin that prints gigabytes without
//! a newline costs 64 KiB of memory and one error.
//!
//! ```
//! use tfwire_plugin::handshake::Handshake;
//! let line = "1|6|unix|/tmp/p/plugin.sock|grpc|AQID";
//! let h = Handshake::parse(line)?;
//! assert_eq!((h.app_version, h.address.as_str()), (6, "/tmp/p/plugin.sock"));
//! assert_eq!(h.server_cert.as_deref(), Some(&[1u8, 2, 3][..]));
//! assert_eq!(h.to_line(), line);
//! # Ok::<(), tfwire_plugin::Error>(())
//! ```

use crate::{Error, ErrorKind};

/// go-plugin's core protocol version, the first field of every handshake line.
pub const CORE_PROTOCOL_VERSION: u32 = 1;

/// The longest handshake line read, newline included: 64 KiB (65,536 bytes), the default
/// token limit of the `bufio.Scanner` with which go-plugin's client reads it. Real lines are a
/// few hundred bytes (under 1 KiB with a certificate).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One handshake line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    /// go-plugin's core protocol version (always 1).
    pub core_version: u32,
    /// The plugin protocol's major version (5 or 6).
    pub app_version: u32,
    /// `unix` or `tcp`.
    pub network: String,
    /// The socket path (`unix`) or `host:port` (`tcp`).
    pub address: String,
    /// `grpc` (`netrpc` is the protocol of plugins Terraform no longer runs).
    pub protocol: String,
    /// The server's certificate (DER) under AutoMTLS.
    pub server_cert: Option<Vec<u8>>,
}

#[cold]
fn err(message: String) -> Error {
    Error::new(ErrorKind::Handshake, message)
}

impl Handshake {
    /// Parses a line (surrounding white space, the newline included, is trimmed, as go-plugin
    /// trims it). Four fields are the least go-plugin accepts (the protocol then defaults to
    /// `netrpc`).
    pub fn parse(line: &str) -> Result<Handshake, Error> {
        let line = line.trim();
        let parts: Vec<&str> = line.split('|').collect();
        if !(4..=6).contains(&parts.len()) {
            return Err(err(format!(
                "a handshake line has 4 to 6 fields separated by '|', found {} in {:?}",
                parts.len(),
                abbreviate(line)
            )));
        }
        let number = |i: usize, what: &str| {
            parts[i].parse::<u32>().map_err(|_| {
                err(format!(
                    "field {} of the handshake line ({what}) is not a number: {:?}",
                    i + 1,
                    abbreviate(parts[i])
                ))
            })
        };
        let core_version = number(0, "core protocol version")?;
        if core_version != CORE_PROTOCOL_VERSION {
            return Err(err(format!(
                "core protocol version {core_version}, expected {CORE_PROTOCOL_VERSION}"
            )));
        }
        let app_version = number(1, "plugin protocol version")?;
        let server_cert = match parts.get(5) {
            Some(c) if !c.is_empty() => {
                let der = base64_decode(c)
                    .map_err(|e| err(format!("field 6 (server certificate): {e}")))?;
                if der.is_empty() {
                    return Err(err(format!(
                        "field 6 (server certificate): {:?} holds no bytes",
                        abbreviate(c)
                    )));
                }
                Some(der)
            }
            _ => None,
        };
        Ok(Handshake {
            core_version,
            app_version,
            network: parts[2].to_owned(),
            address: parts[3].to_owned(),
            protocol: parts.get(4).copied().unwrap_or("netrpc").to_owned(),
            server_cert,
        })
    }

    /// The line as go-plugin prints it (six fields, the last empty without a certificate), without
    /// the newline.
    pub fn to_line(&self) -> String {
        format!(
            "{}|{}|{}|{}|{}|{}",
            self.core_version,
            self.app_version,
            self.network,
            self.address,
            self.protocol,
            self.server_cert
                .as_deref()
                .map(base64_encode)
                .unwrap_or_default()
        )
    }
}

/// Collects a plugin's first line of output from what it prints, chunk by chunk, holding at
/// most [`MAX_LINE_BYTES`].
///
/// ```
/// use tfwire_plugin::handshake::LineReader;
/// let mut reader = LineReader::new();
/// assert_eq!(reader.feed(b"1|6|unix|/tmp/p/plugin.sock")?, None);
/// // The line ends in this chunk: 7 of its bytes belong to it, the rest is later output.
/// assert_eq!(reader.feed(b"|grpc|\nlog line\n")?, Some(7));
/// assert_eq!(reader.handshake()?.address, "/tmp/p/plugin.sock");
///
/// let mut flood = LineReader::new();
/// let err = flood.feed(&vec![b'a'; 70_000]).unwrap_err();
/// assert!(err.message().starts_with("no newline in the first 65536 bytes"));
/// # Ok::<(), tfwire_plugin::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct LineReader {
    line: Vec<u8>,
    complete: bool,
}

impl LineReader {
    /// A reader that has seen nothing yet.
    pub fn new() -> LineReader {
        LineReader::default()
    }

    /// Takes the next chunk of the plugin's output. `Ok(Some(n))` once the line is complete:
    /// the first `n` bytes of `chunk` (through the newline) were the end of the line, the rest
    /// is later output; `Ok(None)` while the line goes on; an error once [`MAX_LINE_BYTES`]
    /// have come without a newline. A reader whose line is complete takes nothing more
    /// (`Ok(Some(0))`).
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Option<usize>, Error> {
        if self.complete {
            return Ok(Some(0));
        }
        let room = MAX_LINE_BYTES - self.line.len();
        let window = &chunk[..chunk.len().min(room)];
        if let Some(i) = window.iter().position(|&b| b == b'\n') {
            self.line.extend_from_slice(&window[..i]);
            self.complete = true;
            return Ok(Some(i + 1));
        }
        self.line.extend_from_slice(window);
        if self.line.len() == MAX_LINE_BYTES {
            return Err(err(format!(
                "no newline in the first {MAX_LINE_BYTES} bytes of the plugin's standard \
                 output: that is no handshake line (it starts {:?})",
                abbreviate(&String::from_utf8_lossy(
                    &self.line[..self.line.len().min(320)]
                ))
            )));
        }
        Ok(None)
    }

    /// Whether the line is complete (its newline came).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The line read so far, without its newline.
    pub fn line(&self) -> &[u8] {
        &self.line
    }

    /// Parses the line read: the complete line, or, when the plugin's output ended without a
    /// newline, what came before the end (go-plugin's client reads that as a line too).
    pub fn handshake(&self) -> Result<Handshake, Error> {
        if self.line.is_empty() && !self.complete {
            return Err(err(
                "the plugin's standard output ended without a handshake line".into(),
            ));
        }
        let text = core::str::from_utf8(&self.line).map_err(|e| {
            err(format!(
                "byte {:#04x} at offset {} of the handshake line is not UTF-8",
                self.line[e.valid_up_to()],
                e.valid_up_to()
            ))
        })?;
        Handshake::parse(text)
    }
}

/// The start of a long text, for error messages.
fn abbreviate(s: &str) -> String {
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 without padding (Go's `base64.RawStdEncoding`).
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// Decodes standard base64, with or without padding (Go's `RawStdEncoding` writes none).
pub fn base64_decode(text: &str) -> Result<Vec<u8>, Error> {
    let digits = text.trim_end_matches('=');
    if digits.len() % 4 == 1 || text.len() - digits.len() > 2 {
        return Err(err(format!(
            "not base64: {} characters cannot end a group",
            digits.len() % 4
        )));
    }
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    let (mut n, mut bits) = (0u32, 0u32);
    for (i, c) in digits.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => {
                return Err(err(format!(
                    "not base64: byte {c:#04x} at offset {i} is not a base64 digit"
                )));
            }
        };
        n = n << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
            n &= (1 << bits) - 1;
        }
    }
    if n != 0 {
        return Err(err(
            "not base64: the last digit has bits set past the end".into()
        ));
    }
    Ok(out)
}

/// A DER certificate as PEM (what `PLUGIN_CLIENT_CERT` holds).
pub fn pem_certificate(der: &[u8]) -> String {
    let mut b = base64_encode(der);
    while !b.len().is_multiple_of(4) {
        b.push('=');
    }
    let mut out = String::from("-----BEGIN CERTIFICATE-----\n");
    for line in b.as_bytes().chunks(64) {
        out.push_str(core::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out.push_str("-----END CERTIFICATE-----\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_every_length() {
        // RFC 4648's test vectors, unpadded.
        let vectors = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64_encode(plain.as_bytes()), encoded);
            assert_eq!(base64_decode(encoded).unwrap(), plain.as_bytes());
            let padded = format!("{encoded}{}", "=".repeat((4 - encoded.len() % 4) % 4));
            assert_eq!(base64_decode(&padded).unwrap(), plain.as_bytes());
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(base64_decode(&base64_encode(&all)).unwrap(), all);
    }

    #[test]
    fn bad_base64_is_an_error() {
        for bad in ["Z", "Zm9v!", "Zh", "Zm9vYg==="] {
            assert!(base64_decode(bad).is_err(), "{bad}");
        }
        assert_eq!(
            base64_decode("Zm.v").unwrap_err().message(),
            "not base64: byte 0x2e at offset 2 is not a base64 digit"
        );
    }

    #[test]
    fn lines() {
        let h = Handshake::parse("1|5|tcp|127.0.0.1:1234|grpc|\n").unwrap();
        assert_eq!(h.server_cert, None);
        assert_eq!(h.to_line(), "1|5|tcp|127.0.0.1:1234|grpc|");
        let h = Handshake::parse("1|5|unix|/s").unwrap();
        assert_eq!(h.protocol, "netrpc");
        for (bad, message) in [
            (
                "hello",
                "a handshake line has 4 to 6 fields separated by '|', found 1 in \"hello\"",
            ),
            ("2|6|unix|/s|grpc|", "core protocol version 2, expected 1"),
            (
                "1|x|unix|/s|grpc|",
                "field 2 of the handshake line (plugin protocol version) is not a number: \"x\"",
            ),
            (
                "1|6|unix|/s|grpc|==",
                "field 6 (server certificate): \"==\" holds no bytes",
            ),
            (
                "1|6|unix|/s|grpc|@AAA",
                "field 6 (server certificate): not base64: byte 0x40 at offset 0 is not a base64 digit",
            ),
        ] {
            assert_eq!(Handshake::parse(bad).unwrap_err().message(), message);
        }
    }

    #[test]
    fn line_reader_bound_and_chunks() {
        // The longest line read: 65,535 bytes and the newline.
        let mut long = vec![b'x'; MAX_LINE_BYTES - 1];
        long.extend_from_slice(b"\nrest");
        let mut r = LineReader::new();
        assert_eq!(r.feed(&long).unwrap(), Some(MAX_LINE_BYTES));
        assert_eq!(r.line().len(), MAX_LINE_BYTES - 1);
        assert_eq!(r.feed(b"more").unwrap(), Some(0));
        // One byte more, in chunks of any size, is an error, holding no more than the bound.
        for chunk in [1, 7, 4096, MAX_LINE_BYTES + 1] {
            let mut r = LineReader::new();
            let mut err = None;
            for piece in vec![0u8; MAX_LINE_BYTES + 1].chunks(chunk) {
                match r.feed(piece) {
                    Ok(None) => {}
                    Ok(Some(n)) => panic!("a line of {n} bytes in NUL bytes"),
                    Err(e) => {
                        err = Some(e);
                        break;
                    }
                }
            }
            let err = err.expect("the bound");
            assert_eq!(r.line().len(), MAX_LINE_BYTES);
            assert!(
                err.message().starts_with(
                    "no newline in the first 65536 bytes of the plugin's standard output: that \
                     is no handshake line (it starts \"\\0\\0"
                ),
                "{}",
                err.message()
            );
            assert!(!err.to_string().contains('\n'));
        }
        // A line split anywhere reads as one; CRLF and spaces are trimmed as go-plugin trims.
        let text = b"1|6|unix|/s|grpc|AQID\r\nnext";
        for cut in 0..text.len() {
            let mut r = LineReader::new();
            let first = r.feed(&text[..cut]).unwrap();
            let n = match first {
                Some(n) => n,
                None => cut + r.feed(&text[cut..]).unwrap().unwrap(),
            };
            assert_eq!(n, text.len() - 4, "cut {cut}");
            assert_eq!(r.handshake().unwrap().server_cert, Some(vec![1, 2, 3]));
        }
        // Output that ends without a newline: the bytes before the end are the line.
        let mut r = LineReader::new();
        assert_eq!(r.feed(b" 1|5|unix|/s|grpc| ").unwrap(), None);
        assert_eq!(r.handshake().unwrap().app_version, 5);
        assert_eq!(
            LineReader::new().handshake().unwrap_err().message(),
            "the plugin's standard output ended without a handshake line"
        );
        let mut r = LineReader::new();
        r.feed(b"1|6|\xff\n").unwrap();
        assert_eq!(
            r.handshake().unwrap_err().message(),
            "byte 0xff at offset 4 of the handshake line is not UTF-8"
        );
    }

    #[test]
    fn pem_lines_are_64_columns_and_padded() {
        let der: Vec<u8> = (0..100).collect();
        let pem = pem_certificate(&der);
        let body: Vec<&str> = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        assert!(body[..body.len() - 1].iter().all(|l| l.len() == 64));
        assert!(body.concat().len().is_multiple_of(4));
        assert_eq!(base64_decode(&body.concat()).unwrap(), der);
    }
}
