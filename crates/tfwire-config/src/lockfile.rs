//! The dependency lock file (`.terraform.lock.hcl`): which version of each provider a
//! configuration was planned with.

use crate::error::{Error, ErrorKind, Location};
use hcl_edit::Span;
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block, Body};

/// The name errors give the lock file.
const FILE: &str = ".terraform.lock.hcl";

/// A dependency lock file, read.
///
/// ```
/// let text = br#"
/// provider "registry.opentofu.org/hashicorp/time" {
///   version     = "0.14.2"
///   constraints = ">= 0.9.0"
///   hashes = [
///     "h1:abc=",
///   ]
/// }
/// "#;
/// let lock = tfwire_config::LockFile::parse(text)?;
/// let time = lock.provider("registry.opentofu.org/hashicorp/time").unwrap();
/// assert_eq!(time.version, "0.14.2");
/// assert_eq!(time.constraints.as_deref(), Some(">= 0.9.0"));
/// assert_eq!(time.hashes, ["h1:abc="]);
/// # Ok::<(), tfwire_config::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockFile {
    providers: Vec<LockedProvider>,
}

/// One `provider` block of a lock file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LockedProvider {
    /// The provider's source address as written (`registry.terraform.io/hashicorp/aws`).
    pub address: String,
    /// The selected version.
    pub version: String,
    /// The version constraints the configuration gave, if recorded.
    pub constraints: Option<String>,
    /// The recorded package checksums.
    pub hashes: Vec<String>,
}

impl LockFile {
    /// Reads a lock file. Blocks other than `provider` and arguments other than `version`,
    /// `constraints` and `hashes` are ignored, as a later client may add them.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NotUtf8`], [`ErrorKind::Syntax`] (with the line, column and byte
    /// offset), or [`ErrorKind::Invalid`] for a provider block without exactly one label,
    /// without a `version`, with an argument of the wrong kind, or given twice.
    pub fn parse(bytes: &[u8]) -> Result<LockFile, Error> {
        let text = core::str::from_utf8(bytes).map_err(|e| {
            let at = location(bytes, e.valid_up_to());
            Error::new(ErrorKind::NotUtf8, FILE, Some(at))
        })?;
        let body: Body = crate::parse::parse_body(FILE, text)?;
        let mut providers: Vec<LockedProvider> = Vec::new();
        for block in body.blocks().filter(|b| b.ident.as_str() == "provider") {
            let provider = provider(text, block)?;
            if providers.iter().any(|p| p.address == provider.address) {
                return Err(invalid(
                    text,
                    block.span(),
                    format!("provider {:?} is locked twice", provider.address),
                ));
            }
            providers.push(provider);
        }
        Ok(LockFile { providers })
    }

    /// The providers, in the file's order.
    pub fn providers(&self) -> &[LockedProvider] {
        &self.providers
    }

    /// The provider at this source address, as written in the file.
    pub fn provider(&self, address: &str) -> Option<&LockedProvider> {
        self.providers.iter().find(|p| p.address == address)
    }
}

fn provider(text: &str, block: &Block) -> Result<LockedProvider, Error> {
    let [label] = &block.labels[..] else {
        return Err(invalid(
            text,
            block.span(),
            "a provider block needs exactly one label, the provider's address".into(),
        ));
    };
    let address = label.as_str().to_owned();
    let mut version = None;
    let mut constraints = None;
    let mut hashes = Vec::new();
    for attr in block.body.attributes() {
        match attr.key.as_str() {
            "version" => version = Some(string(text, attr)?),
            "constraints" => constraints = Some(string(text, attr)?),
            "hashes" => {
                let Expression::Array(items) = &attr.value else {
                    return Err(wrong_kind(text, attr, "a list of strings"));
                };
                for item in items.iter() {
                    let Expression::String(s) = item else {
                        return Err(invalid(
                            text,
                            item.span(),
                            "`hashes` holds something other than a string".into(),
                        ));
                    };
                    hashes.push(s.value().clone());
                }
            }
            _ => {}
        }
    }
    let Some(version) = version else {
        return Err(invalid(
            text,
            block.span(),
            format!("provider {address:?} has no `version`"),
        ));
    };
    Ok(LockedProvider {
        address,
        version,
        constraints,
        hashes,
    })
}

fn string(text: &str, attr: &Attribute) -> Result<String, Error> {
    match &attr.value {
        Expression::String(s) => Ok(s.value().clone()),
        _ => Err(wrong_kind(text, attr, "a string")),
    }
}

fn wrong_kind(text: &str, attr: &Attribute, expected: &str) -> Error {
    invalid(
        text,
        attr.value.span(),
        format!("`{}` must be {expected}", attr.key.as_str()),
    )
}

fn invalid(text: &str, span: Option<core::ops::Range<usize>>, message: String) -> Error {
    let at = span.map(|s| location(text.as_bytes(), s.start));
    Error::new(ErrorKind::Invalid(message), FILE, at)
}

/// The line and column of byte `offset` of `bytes`.
pub(crate) fn location(bytes: &[u8], offset: usize) -> Location {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    Location {
        line: before.iter().filter(|&&b| b == b'\n').count() + 1,
        column,
        offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lock_file_of_the_corpus_reads() {
        // The lock files the real clients wrote, as the plan files carry them, are compared
        // by the planfile tests; here the shapes a hand-edited file may take.
        let lock = LockFile::parse(
            b"# comment\nprovider \"a/b\" {\n  version = \"1.0.0\"\n  future = 1\n}\nother {}\n",
        )
        .unwrap();
        assert_eq!(lock.providers().len(), 1);
        assert_eq!(lock.providers()[0].address, "a/b");
        assert!(lock.providers()[0].hashes.is_empty());
    }

    #[test]
    fn bad_lock_files_say_where() {
        let cases: [(&[u8], &str); 6] = [
            (
                b"provider \"a\" {\n  hashes = [\"x\"]\n}\n",
                "1:1 (byte 0): provider \"a\" has no `version`",
            ),
            (b"provider {\n}\n", "needs exactly one label"),
            (
                b"provider \"a\" {\n  version = 1\n}\n",
                "2:13 (byte 27): `version` must be a string",
            ),
            (
                b"provider \"a\" {\n  version = \"1\"\n  hashes = [1]\n}\n",
                "3:13",
            ),
            (
                b"provider \"a\" {\n  version = \"1\"\n}\nprovider \"a\" {\n  version = \"2\"\n}\n",
                "locked twice",
            ),
            (b"provider \"a\" {\n  version = \"1\"\n", "invalid HCL"),
        ];
        for (text, expected) in cases {
            let e = LockFile::parse(text).unwrap_err().to_string();
            assert!(e.contains(expected), "{e}");
        }
        let e = LockFile::parse(b"provider \"\xff\" {}").unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::NotUtf8);
        assert_eq!(e.location().unwrap().offset, 10);
    }

    #[test]
    fn hostile_nesting_is_an_error_not_a_crash() {
        let deep = format!("x = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let e = LockFile::parse(deep.as_bytes()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Syntax(_)), "{e}");
    }
}
