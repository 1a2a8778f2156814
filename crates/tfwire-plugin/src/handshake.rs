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
    /// Parses a line (a trailing newline is allowed). Four fields are the least go-plugin
    /// accepts (the protocol then defaults to `netrpc`).
    pub fn parse(line: &str) -> Result<Handshake, Error> {
        let line = line.trim_end_matches(['\n', '\r']);
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
            Some(c) if !c.is_empty() => Some(
                base64_decode(c).map_err(|e| err(format!("field 6 (server certificate): {e}")))?,
            ),
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
                "1|6|unix|/s|grpc|@AAA",
                "field 6 (server certificate): not base64: byte 0x40 at offset 0 is not a base64 digit",
            ),
        ] {
            assert_eq!(Handshake::parse(bad).unwrap_err().message(), message);
        }
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
