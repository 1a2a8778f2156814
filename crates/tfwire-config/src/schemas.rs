//! A cache of provider schemas on disk, indexed by provider address and version
//! ([`SchemaCache`]: its layout, the rules for names, and why it is in this crate).

use crate::error::{Error, ErrorKind};
use crate::lockfile::LockFile;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use tfwire::schema::ProviderSchemas;
use tfwire_json::tape::{DEFAULT_MAX_DEPTH, INPUT_PADDING, TapeParser};

/// The longest host name (DNS's limit).
const HOST_MAX: usize = 253;
/// The longest namespace, type or version accepted.
const PART_MAX: usize = 128;

/// A cache of provider schemas on disk, indexed by provider address and version: what lets
/// `show -json` run without launching a provider.
///
/// A provider's schema is fixed by its version, so a `providers schema -json` document
/// fetched once serves every later plan that locks that version. [`SchemaCache::add`] files
/// each provider of such a document under its address and version; [`SchemaCache::select`]
/// picks, for one plan, the version of each provider its dependency lock file names and
/// merges them into one [`ProviderSchemas`].
///
/// # Layout
///
/// ```text
/// DIR/<host>/<namespace>/<type>/<version>.json
/// DIR/registry.opentofu.org/hashicorp/null/3.2.4.json
/// DIR/terraform.io/builtin/terraform/1.16.0.json
/// ```
///
/// Each file is a `providers schema -json` document holding that one provider
/// (`{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/hashicorp/null":{...}}}`),
/// so any file of the cache can be given to a tool that reads that document. The address is
/// kept as the lock file writes it, lower-cased (addresses are case-insensitive); the version
/// as written. Built-in providers (`terraform.io/builtin/terraform`), which lock files never
/// list, are filed under the version of the client that planned. Files are written to a
/// temporary name beside their place (`.<version>.json.tmp-…`, skipped when listing) and
/// renamed, so a reader never sees half a file and filing twice changes nothing.
///
/// # Names from untrusted input
///
/// The addresses and versions that become file names come from lock files and schema
/// documents, which may come from an untrusted pull request. Each part is checked before it
/// touches a path ([`ProviderAddress::parse`], [`check_version`]): a host of letters, digits,
/// dots and hyphens; a namespace and type of letters, digits, hyphens and underscores; a
/// version of letters, digits, dots, `+`, `-` and `_`; each starting with a letter or
/// digit. No part can be empty, `.`, `..`, or hold a separator, so no name leaves the cache
/// directory. Every file read is bounded by the size given to [`SchemaCache::new`].
///
/// # Why this crate
///
/// Selection reads the dependency lock file, which this crate parses ([`LockFile`]); the
/// schemas are tfwire's [`ProviderSchemas`], a dependency this crate already has. The
/// plan-file crate sits above and the CLI only wires the two together.
///
/// ```
/// use tfwire_config::{LockFile, SchemaCache};
///
/// let dir = std::env::temp_dir().join(format!("tfwire-doc-cache-{}", std::process::id()));
/// let cache = SchemaCache::new(&dir, 1 << 20);
/// let doc = br#"{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/hashicorp/null":
///   {"resource_schemas":{"null_resource":{"version":0,"block":{"attributes":{"id":{"type":"string","computed":true}}}}}}}}"#;
/// let lock = LockFile::parse(b"provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.4\"\n}\n")?;
/// let filed = cache.add(doc, |addr| lock.provider(addr).map(|p| p.version.clone()))?;
/// assert_eq!(filed[0].version, "3.2.4");
/// let schemas = cache.select(&tfwire_config::Selection { lock: Some(&lock), ..Default::default() })?;
/// assert!(schemas.provider("registry.opentofu.org/hashicorp/null").is_some());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), tfwire_config::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SchemaCache {
    dir: PathBuf,
    max_file_bytes: usize,
}

/// A provider's source address, checked to be safe as a path: `host/namespace/type`,
/// lower-cased.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ProviderAddress {
    host: String,
    namespace: String,
    kind: String,
}

/// One schema in the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedSchema {
    /// The provider's address.
    pub address: ProviderAddress,
    /// The provider's version.
    pub version: String,
    /// The file.
    pub path: PathBuf,
}

/// What [`SchemaCache::add`] did with one provider.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Filed {
    /// The provider's address.
    pub address: ProviderAddress,
    /// The version it was filed under.
    pub version: String,
    /// The file.
    pub path: PathBuf,
    /// What changed on disk.
    pub outcome: Outcome,
}

/// What filing a schema changed on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The file is new.
    Added,
    /// The file held the same schema already.
    Unchanged,
    /// The file held another text for this version and was replaced.
    Replaced,
}

/// Which versions [`SchemaCache::select`] takes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Selection<'a> {
    /// The dependency lock file: the version of each provider it lists (each must be
    /// cached).
    pub lock: Option<&'a LockFile>,
    /// The version of the client that planned: the version of the built-in providers
    /// (`terraform.io/builtin/*`), which lock files never list.
    pub client_version: Option<&'a str>,
    /// Without a lock file, only the cached providers whose address this text (the document
    /// being read) holds are taken; `None` takes every cached provider.
    pub named_in: Option<&'a [u8]>,
}

impl ProviderAddress {
    /// Checks a full source address (`registry.opentofu.org/hashicorp/null`): three parts,
    /// each of the characters [`SchemaCache`]'s documentation lists. Letters are
    /// lower-cased.
    ///
    /// ```
    /// use tfwire_config::ProviderAddress;
    /// let a = ProviderAddress::parse("registry.terraform.io/HashiCorp/aws").unwrap();
    /// assert_eq!(a.to_string(), "registry.terraform.io/hashicorp/aws");
    /// assert!(ProviderAddress::parse("registry.terraform.io/../aws").is_err());
    /// assert!(ProviderAddress::parse("aws").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A message saying which part is wrong and why.
    pub fn parse(address: &str) -> Result<ProviderAddress, String> {
        let parts: Vec<&str> = address.split('/').collect();
        let [host, namespace, kind] = parts[..] else {
            return Err(format!(
                "provider address {address:?} is not a full source address (HOST/NAMESPACE/TYPE)"
            ));
        };
        let host_ok = |c: char| c.is_ascii_alphanumeric() || c == '.' || c == '-';
        let name_ok = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        check_part(address, "host", host, HOST_MAX, host_ok)?;
        if host.contains("..") || host.ends_with(['.', '-']) {
            return Err(format!(
                "provider address {address:?}: invalid host {host:?}"
            ));
        }
        check_part(address, "namespace", namespace, PART_MAX, name_ok)?;
        check_part(address, "type", kind, PART_MAX, name_ok)?;
        Ok(ProviderAddress {
            host: host.to_ascii_lowercase(),
            namespace: namespace.to_ascii_lowercase(),
            kind: kind.to_ascii_lowercase(),
        })
    }

    /// Whether this is a built-in provider (`terraform.io/builtin/...`), which lock files
    /// never list.
    pub fn is_builtin(&self) -> bool {
        self.host == "terraform.io" && self.namespace == "builtin"
    }

    /// The host (`registry.opentofu.org`).
    pub fn host(&self) -> &str {
        &self.host
    }
}

impl core::fmt::Display for ProviderAddress {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}/{}/{}", self.host, self.namespace, self.kind)
    }
}

fn check_part(
    address: &str,
    what: &str,
    part: &str,
    max: usize,
    ok: impl Fn(char) -> bool,
) -> Result<(), String> {
    let first_ok = part
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    if !first_ok || part.len() > max || !part.chars().all(ok) {
        return Err(format!(
            "provider address {address:?}: invalid {what} {part:?} (letters, digits{}, starting \
             with a letter or digit, at most {max} characters)",
            if what == "host" {
                ", dots and hyphens"
            } else {
                ", hyphens and underscores"
            }
        ));
    }
    Ok(())
}

/// Checks a provider version for use as a file name: letters, digits, `.`, `+`, `-` and
/// `_`, starting with a letter or digit, no `..`, at most 128 characters.
///
/// ```
/// assert!(tfwire_config::check_version("3.2.4").is_ok());
/// assert!(tfwire_config::check_version("1.0.0-beta.1+build.5").is_ok());
/// assert!(tfwire_config::check_version("../../etc/passwd").is_err());
/// ```
///
/// # Errors
///
/// A message naming the version.
pub fn check_version(version: &str) -> Result<(), String> {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_');
    let first_ok = version
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    if !first_ok || version.len() > PART_MAX || version.contains("..") || !version.chars().all(ok) {
        return Err(format!(
            "invalid provider version {version:?} (letters, digits, '.', '+', '-' and '_', \
             starting with a letter or digit, at most {PART_MAX} characters)"
        ));
    }
    Ok(())
}

impl SchemaCache {
    /// The cache in `dir` (created when a schema is first added); every file read from it,
    /// and every document given to [`SchemaCache::add`], may hold at most `max_file_bytes`.
    pub fn new(dir: impl Into<PathBuf>, max_file_bytes: usize) -> SchemaCache {
        SchemaCache {
            dir: dir.into(),
            max_file_bytes,
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the schema of `address` at `version` is (or would be) filed.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Invalid`] for a version unsafe as a file name ([`check_version`]).
    pub fn path(&self, address: &ProviderAddress, version: &str) -> Result<PathBuf, Error> {
        check_version(version).map_err(|m| self.error(ErrorKind::Invalid(m)))?;
        Ok(self.provider_dir(address).join(format!("{version}.json")))
    }

    fn provider_dir(&self, a: &ProviderAddress) -> PathBuf {
        self.dir.join(&a.host).join(&a.namespace).join(&a.kind)
    }

    /// Every schema in the cache, by address then version (as text). Names that are not
    /// the cache's (another file, a temporary file) are skipped; a missing directory is an
    /// empty cache.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`] when a directory cannot be read.
    pub fn entries(&self) -> Result<Vec<CachedSchema>, Error> {
        let mut out = Vec::new();
        for host in self.names(&self.dir)? {
            for ns in self.names(&self.dir.join(&host))? {
                for kind in self.names(&self.dir.join(&host).join(&ns))? {
                    let Ok(address) = ProviderAddress::parse(&format!("{host}/{ns}/{kind}")) else {
                        continue;
                    };
                    if address.to_string() != format!("{host}/{ns}/{kind}") {
                        continue; // not lower-case: not a name the cache writes
                    }
                    let dir = self.provider_dir(&address);
                    for file in self.names(&dir)? {
                        let Some(version) = file.strip_suffix(".json") else {
                            continue;
                        };
                        if check_version(version).is_ok() {
                            out.push(CachedSchema {
                                address: address.clone(),
                                version: version.to_owned(),
                                path: dir.join(&file),
                            });
                        }
                    }
                }
            }
        }
        out.sort_by(|a, b| (&a.address, &a.version).cmp(&(&b.address, &b.version)));
        Ok(out)
    }

    /// The names in a directory (none if it does not exist), skipping names that are not
    /// UTF-8.
    fn names(&self, dir: &Path) -> Result<Vec<String>, Error> {
        let read = match std::fs::read_dir(dir) {
            Ok(r) => r,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io(dir, &e)),
        };
        let mut out = Vec::new();
        for entry in read {
            let entry = entry.map_err(|e| io(dir, &e))?;
            if let Ok(name) = entry.file_name().into_string() {
                out.push(name);
            }
        }
        Ok(out)
    }

    /// The cached versions of one provider.
    fn versions(&self, address: &ProviderAddress) -> Result<Vec<String>, Error> {
        let mut out: Vec<String> = self
            .names(&self.provider_dir(address))?
            .into_iter()
            .filter_map(|f| f.strip_suffix(".json").map(str::to_owned))
            .filter(|v| check_version(v).is_ok())
            .collect();
        out.sort();
        Ok(out)
    }

    /// Files each provider of a `providers schema -json` document under its address and
    /// the version `version_of` gives for it. Nothing is written unless every provider has
    /// a safe address and a version and the document loads as schemas. Filing the same
    /// schema again changes nothing ([`Outcome::Unchanged`]).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Invalid`] for a document that is not a `providers schema -json`
    /// document (with tfwire's message: path and byte), a provider key that is not a safe
    /// full address, an unsafe version; [`ErrorKind::VersionUnknown`] for a provider
    /// `version_of` gives no version for; [`ErrorKind::TooLarge`]; [`ErrorKind::Io`].
    pub fn add(
        &self,
        document: &[u8],
        version_of: impl Fn(&str) -> Option<String>,
    ) -> Result<Vec<Filed>, Error> {
        if document.len() > self.max_file_bytes {
            return Err(self.error(ErrorKind::TooLarge {
                limit: self.max_file_bytes as u64,
            }));
        }
        let invalid = |m: String| self.error(ErrorKind::Invalid(m));
        ProviderSchemas::from_json(document).map_err(|e| invalid(e.to_string()))?;
        let mut buf = Vec::with_capacity(document.len() + INPUT_PADDING);
        buf.extend_from_slice(document);
        buf.resize(document.len() + INPUT_PADDING, b' ');
        let shape = tfwire_json::json_shape(document, DEFAULT_MAX_DEPTH, document.len())
            .map_err(|e| invalid(e.to_string()))?;
        let mut parser = TapeParser::new(DEFAULT_MAX_DEPTH);
        let doc = parser
            .parse_document(&mut buf, document.len(), &shape)
            .map_err(|e| invalid(e.to_string()))?;
        let root = doc.root();
        let format_version = root.get("format_version");
        let providers = root
            .get("provider_schemas")
            .and_then(|p| p.as_object())
            .ok_or_else(|| invalid("the document has no `provider_schemas` object".into()))?;
        let mut planned = Vec::new();
        for (key, schema) in providers.iter() {
            let address = ProviderAddress::parse(key).map_err(invalid)?;
            let Some(version) = version_of(key) else {
                return Err(self.error(ErrorKind::VersionUnknown {
                    address: address.to_string(),
                    cached: self.versions(&address)?,
                }));
            };
            let path = self.path(&address, &version)?;
            let mut text = String::from("{");
            if let Some(fv) = format_version {
                let _ = write!(text, "\"format_version\":{fv},");
            }
            let _ = writeln!(text, "\"provider_schemas\":{{\"{address}\":{schema}}}}}");
            planned.push((address, version, path, text));
        }
        planned
            .into_iter()
            .map(|(address, version, path, text)| {
                let outcome = self.write(&path, &version, text.as_bytes())?;
                Ok(Filed {
                    address,
                    version,
                    path,
                    outcome,
                })
            })
            .collect()
    }

    /// Writes `bytes` to `path` through a temporary file and a rename.
    fn write(&self, path: &Path, version: &str, bytes: &[u8]) -> Result<Outcome, Error> {
        let outcome = match std::fs::read(path) {
            Ok(old) if old == bytes => return Ok(Outcome::Unchanged),
            Ok(_) => Outcome::Replaced,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Outcome::Added,
            Err(e) => return Err(io(path, &e)),
        };
        let dir = path.parent().unwrap_or(&self.dir);
        std::fs::create_dir_all(dir).map_err(|e| io(dir, &e))?;
        let tmp = dir.join(format!(".{version}.json.tmp-{}", std::process::id()));
        let written = std::fs::File::create(&tmp).and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        });
        if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, path)) {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(path, &e));
        }
        Ok(outcome)
    }

    /// The schemas `selection` picks, merged into one document keyed by full address.
    ///
    /// With a lock file: the version it gives each provider it lists, each of which must be
    /// cached. Built-in providers: the client's version if cached, else the only cached
    /// version. Without a lock file: every cached provider (those `named_in` names, if
    /// given), at its only cached version.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NotCached`] (with the cached versions) for a locked version that is
    /// not cached; [`ErrorKind::VersionUnknown`] for a provider with several cached
    /// versions and none chosen; [`ErrorKind::Invalid`] for an unsafe address or version
    /// in the lock file, or a cached file that does not hold the provider's schema;
    /// [`ErrorKind::TooLarge`]; [`ErrorKind::Io`].
    pub fn select(&self, selection: &Selection<'_>) -> Result<ProviderSchemas, Error> {
        let mut chosen: BTreeMap<ProviderAddress, String> = BTreeMap::new();
        if let Some(lock) = selection.lock {
            for p in lock.providers() {
                let address = ProviderAddress::parse(&p.address)
                    .map_err(|m| self.error(ErrorKind::Invalid(m)))?;
                let path = self.path(&address, &p.version)?;
                if !path.is_file() {
                    return Err(self.error(ErrorKind::NotCached {
                        address: address.to_string(),
                        version: Some(p.version.clone()),
                        cached: self.versions(&address)?,
                    }));
                }
                chosen.insert(address, p.version.clone());
            }
        }
        let mut cached: BTreeMap<ProviderAddress, Vec<String>> = BTreeMap::new();
        for e in self.entries()? {
            cached.entry(e.address).or_default().push(e.version);
        }
        for (address, versions) in cached {
            if chosen.contains_key(&address) {
                continue;
            }
            let named = || {
                let name = address.to_string();
                selection
                    .named_in
                    .is_none_or(|text| text.windows(name.len()).any(|w| w == name.as_bytes()))
            };
            let version = if address.is_builtin() {
                let own = selection
                    .client_version
                    .filter(|v| versions.iter().any(|c| c == v));
                match (own, &versions[..]) {
                    (Some(v), _) => Some(v.to_owned()),
                    (None, [only]) => Some(only.clone()),
                    _ => None,
                }
            } else if selection.lock.is_some() || !named() {
                continue;
            } else if let [only] = &versions[..] {
                Some(only.clone())
            } else {
                return Err(self.error(ErrorKind::VersionUnknown {
                    address: address.to_string(),
                    cached: versions,
                }));
            };
            if let Some(v) = version {
                chosen.insert(address, v);
            }
        }
        let mut out = ProviderSchemas::default();
        for (address, version) in chosen {
            let path = self.path(&address, &version)?;
            let doc = self.load(&path)?;
            let Some(key) = doc.provider_key(&address.to_string()).map(str::to_owned) else {
                return Err(Error::new(
                    ErrorKind::Invalid(format!("the file does not hold provider {address}")),
                    path.display().to_string(),
                    None,
                ));
            };
            let mut doc = doc;
            if out.format_version.is_none() {
                out.format_version = doc.format_version.take();
            }
            if let Some(schema) = doc.providers.remove(&key) {
                out.providers.insert(address.to_string(), schema);
            }
        }
        Ok(out)
    }

    /// Reads the schema of one entry of [`SchemaCache::entries`] (every version of every
    /// provider can be read so, where [`SchemaCache::select`] chooses one version each): the
    /// file's `providers schema -json` document, bounded by the cache's `max_file_bytes`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TooLarge`], [`ErrorKind::Io`], [`ErrorKind::Invalid`] for a file that is
    /// not a schema document (with tfwire's message: path and byte).
    pub fn load_entry(&self, entry: &CachedSchema) -> Result<ProviderSchemas, Error> {
        self.load(&entry.path)
    }

    /// Reads one cached file, bounded.
    fn load(&self, path: &Path) -> Result<ProviderSchemas, Error> {
        let name = || path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| io(path, &e))?;
        let mut bytes = Vec::new();
        file.take(self.max_file_bytes as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| io(path, &e))?;
        if bytes.len() > self.max_file_bytes {
            return Err(Error::new(
                ErrorKind::TooLarge {
                    limit: self.max_file_bytes as u64,
                },
                name(),
                None,
            ));
        }
        ProviderSchemas::from_json(&bytes)
            .map_err(|e| Error::new(ErrorKind::Invalid(e.to_string()), name(), None))
    }

    fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.dir.display().to_string(), None)
    }
}

#[cold]
fn io(path: &Path, e: &std::io::Error) -> Error {
    Error::new(
        ErrorKind::Io(e.to_string()),
        path.display().to_string(),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tfwire-schemas-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    const DOC: &[u8] = br#"{"format_version":"1.0","provider_schemas":{
        "registry.opentofu.org/hashicorp/null":{"resource_schemas":{"null_resource":{"version":0,"block":{"attributes":{"id":{"type":"string","computed":true}}}}}},
        "terraform.io/builtin/terraform":{"resource_schemas":{"terraform_data":{"version":0,"block":{"attributes":{"id":{"type":"string","computed":true}}}}}}}}"#;

    fn lock(version: &str) -> LockFile {
        LockFile::parse(
            format!("provider \"registry.opentofu.org/hashicorp/null\" {{\n  version = \"{version}\"\n}}\n")
                .as_bytes(),
        )
        .unwrap()
    }

    #[test]
    fn hostile_names_never_become_paths() {
        for bad in [
            "../../etc/passwd",
            "registry.opentofu.org/../null",
            "registry.opentofu.org/hashicorp/..",
            "../hashicorp/null",
            "./hashicorp/null",
            "registry.opentofu.org/hashicorp/nu\\ll",
            "registry.opentofu.org/hashicorp/",
            "/hashicorp/null",
            "registry.opentofu.org/hashicorp/null/extra",
            "registry.opentofu.org/.hidden/null",
            "a..b/hashicorp/null",
            "registry.opentofu.org:443/hashicorp/null",
            "registry.opentofu.org/hashicorp/nul\0l",
        ] {
            assert!(ProviderAddress::parse(bad).is_err(), "{bad:?} accepted");
        }
        for bad in [
            "", "..", ".", "../1.0", "1/0", "1\\0", ".hidden", "1..0", "-1",
        ] {
            assert!(check_version(bad).is_err(), "{bad:?} accepted");
        }
        let dir = temp("hostile");
        let cache = SchemaCache::new(&dir, 1 << 20);
        let err = cache.add(DOC, |_| Some("../../x".into())).unwrap_err();
        assert!(
            err.to_string().contains("invalid provider version"),
            "{err}"
        );
        let hostile = LockFile::parse(
            b"provider \"registry.opentofu.org/../x\" {\n  version = \"1.0.0\"\n}\n",
        )
        .unwrap();
        let err = cache
            .select(&Selection {
                lock: Some(&hostile),
                ..Selection::default()
            })
            .unwrap_err();
        assert!(err.to_string().contains("invalid namespace"), "{err}");
        assert!(!dir.exists(), "nothing is written for a rejected document");
    }

    #[test]
    fn add_then_select_by_lock_and_by_the_only_version() {
        let dir = temp("select");
        let cache = SchemaCache::new(&dir, 1 << 20);
        let version = |addr: &str| {
            Some(
                if addr.starts_with("terraform.io") {
                    "1.16.0"
                } else {
                    "3.2.4"
                }
                .to_owned(),
            )
        };
        let filed = cache.add(DOC, version).unwrap();
        assert_eq!(
            filed.iter().map(|f| f.outcome).collect::<Vec<_>>(),
            [Outcome::Added, Outcome::Added]
        );
        assert!(
            dir.join("registry.opentofu.org/hashicorp/null/3.2.4.json")
                .is_file()
        );
        let again = cache.add(DOC, version).unwrap();
        assert!(again.iter().all(|f| f.outcome == Outcome::Unchanged));

        let by_lock = cache
            .select(&Selection {
                lock: Some(&lock("3.2.4")),
                ..Selection::default()
            })
            .unwrap();
        let whole = ProviderSchemas::from_json(DOC).unwrap();
        assert_eq!(
            by_lock.providers.len(),
            2,
            "the built-in provider comes along"
        );
        assert_eq!(by_lock.format_version.as_deref(), Some("1.0"));
        for (k, v) in &whole.providers {
            assert_eq!(by_lock.providers.get(k), Some(v), "{k}");
        }

        let err = cache
            .select(&Selection {
                lock: Some(&lock("3.2.5")),
                ..Selection::default()
            })
            .unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::NotCached {
                address: "registry.opentofu.org/hashicorp/null".into(),
                version: Some("3.2.5".into()),
                cached: vec!["3.2.4".into()],
            }
        );

        // A second version: a document naming the provider needs the lock file.
        cache.add(DOC, |_| Some("3.2.5".into())).unwrap();
        let err = cache
            .select(&Selection {
                named_in: Some(br#"{"provider":"registry.opentofu.org/hashicorp/null"}"#),
                ..Selection::default()
            })
            .unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::VersionUnknown {
                address: "registry.opentofu.org/hashicorp/null".into(),
                cached: vec!["3.2.4".into(), "3.2.5".into()],
            }
        );
        // One that does not name it does not.
        let none = cache
            .select(&Selection {
                named_in: Some(b"{}"),
                client_version: Some("1.16.0"),
                ..Selection::default()
            })
            .unwrap();
        assert_eq!(
            none.providers.keys().collect::<Vec<_>>(),
            ["terraform.io/builtin/terraform"]
        );
        let listed: Vec<String> = cache
            .entries()
            .unwrap()
            .iter()
            .map(|e| format!("{} {}", e.address, e.version))
            .collect();
        assert_eq!(
            listed,
            [
                "registry.opentofu.org/hashicorp/null 3.2.4",
                "registry.opentofu.org/hashicorp/null 3.2.5",
                "terraform.io/builtin/terraform 1.16.0",
                "terraform.io/builtin/terraform 3.2.5",
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_provider_without_a_version_or_a_short_key_files_nothing() {
        let dir = temp("noversion");
        let cache = SchemaCache::new(&dir, 1 << 20);
        let err = cache
            .add(DOC, |a| a.starts_with("registry").then(|| "1.0.0".into()))
            .unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::VersionUnknown {
                address: "terraform.io/builtin/terraform".into(),
                cached: vec![],
            }
        );
        let short = br#"{"provider_schemas":{"null":{}}}"#;
        let err = cache.add(short, |_| Some("1.0.0".into())).unwrap_err();
        assert!(
            err.to_string().contains("not a full source address"),
            "{err}"
        );
        let err = SchemaCache::new(&dir, 10).add(DOC, |_| None).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::TooLarge { limit: 10 });
        assert!(!dir.exists());
    }
}
