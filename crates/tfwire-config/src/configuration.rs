//! The configuration snapshot of a plan file (`tfconfig/`): the modules manifest and each
//! module's HCL files.

use crate::error::{Error, ErrorKind};
use crate::jsonconfig::{Client, Marshal, Tree, variable_default};
use crate::manifest;
use crate::module::Module;
use hcl_edit::structure::Body;
use std::collections::BTreeMap;
use tfwire::schema::ProgramCache;
use tfwire_json::{Escape, JsonWriter};

/// Limits on a snapshot, for [`Configuration::read`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The most bytes all files may hold together. Default 64 MiB.
    pub max_bytes: u64,
    /// The most modules the manifest may list. Default 10 000.
    pub max_modules: usize,
    /// The most files the snapshot may hold. Default 100 000.
    pub max_files: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bytes: 64 << 20,
            max_modules: 10_000,
            max_files: 100_000,
        }
    }
}

/// One module of the snapshot: its key (`""` for the root, `a.b` for module `b` called by
/// module `a`), its source as the manifest records it, and its parsed files.
#[derive(Debug)]
struct ModuleFiles {
    key: String,
    files: Vec<(String, Body)>,
    /// A file this crate does not read (a JSON-syntax file, an override file, which the
    /// clients merge into the others), and what it is: writing the module is an error.
    unsupported: Option<(String, &'static str)>,
}

/// A configuration snapshot, read: the modules manifest and every module's parsed `.tf`
/// files.
///
/// ```
/// use tfwire_config::{Configuration, Limits};
///
/// let files: [(&str, &[u8]); 2] = [
///     ("modules.json", br#"{"Modules":[{"Key":"","Source":"","Dir":"."}]}"#),
///     ("m-/main.tf", b"variable \"size\" {\n  type    = number\n  default = \"3\"\n}\n"),
/// ];
/// let config = Configuration::read(&files, &Limits::default())?;
/// assert_eq!(config.root_variable_defaults()?, [("size".to_string(), "3".to_string())]);
/// # Ok::<(), tfwire_config::Error>(())
/// ```
#[derive(Debug)]
pub struct Configuration {
    modules: Vec<ModuleFiles>,
}

const MANIFEST: &str = "modules.json";

/// The deepest module nesting written (the clients set none; the bound keeps the writer's
/// recursion within the stack).
const MAX_MODULE_DEPTH: usize = 100;

impl Configuration {
    /// Reads a snapshot from its files: the members under `tfconfig/` of a plan file, named
    /// relative to it (`modules.json`, `m-/main.tf`, `m-child.leaf/x.tf`). Files of a module
    /// the manifest does not list, and files that are not configuration files (`.tftest.hcl`,
    /// `.tfquery.hcl`, ...), are ignored (as the client ignores them). A module with
    /// configuration in JSON syntax (`.tf.json`) or with override files (`override.tf`,
    /// `*_override.tf`) is read, but writing it is an [`ErrorKind::Unsupported`] error naming
    /// the file: this crate does not merge them, and never writes a module incompletely.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TooLarge`] past `limits`, [`ErrorKind::NotUtf8`] for a file that is not
    /// text, [`ErrorKind::Syntax`] for a file that is not HCL (with the line, column and byte
    /// offset), [`ErrorKind::Invalid`] for a manifest that is missing or not the client's.
    pub fn read(files: &[(&str, &[u8])], limits: &Limits) -> Result<Configuration, Error> {
        let total: u64 = files.iter().map(|(_, b)| b.len() as u64).sum();
        if total > limits.max_bytes {
            return Err(Error::new(
                ErrorKind::TooLarge {
                    limit: limits.max_bytes,
                },
                "tfconfig/",
                None,
            ));
        }
        if files.len() > limits.max_files {
            return Err(Error::new(
                ErrorKind::Invalid(format!(
                    "{} files, more than the limit of {}",
                    files.len(),
                    limits.max_files
                )),
                "tfconfig/",
                None,
            ));
        }
        let Some((_, manifest)) = files.iter().find(|(n, _)| *n == MANIFEST) else {
            return Err(Error::new(
                ErrorKind::Invalid("the snapshot has no modules manifest".into()),
                MANIFEST,
                None,
            ));
        };
        let keys = manifest::module_keys(manifest, limits.max_modules)?;
        let mut modules: Vec<ModuleFiles> = keys
            .into_iter()
            .map(|key| ModuleFiles {
                key,
                files: Vec::new(),
                unsupported: None,
            })
            .collect();
        let mut sorted: Vec<&(&str, &[u8])> = files.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        for (name, bytes) in sorted {
            let Some((dir, file)) = name.split_once('/') else {
                continue;
            };
            let Some(key) = dir.strip_prefix("m-") else {
                continue;
            };
            let Some(m) = modules.iter_mut().find(|m| m.key == key) else {
                continue;
            };
            if file.contains('/') {
                continue;
            }
            if file.ends_with(".tf.json") {
                m.unsupported.get_or_insert_with(|| {
                    ((*name).to_owned(), "configuration files in JSON syntax")
                });
                continue;
            }
            if !file.ends_with(".tf") {
                continue;
            }
            if file == "override.tf" || file.ends_with("_override.tf") {
                m.unsupported
                    .get_or_insert_with(|| ((*name).to_owned(), "override files"));
                continue;
            }
            let text = core::str::from_utf8(bytes).map_err(|e| {
                let at = crate::lockfile::location(bytes, e.valid_up_to());
                Error::new(ErrorKind::NotUtf8, *name, Some(at))
            })?;
            let body = crate::parse::parse_body(name, text)?;
            m.files.push(((*name).to_owned(), body));
        }
        if !modules.iter().any(|m| m.key.is_empty()) {
            return Err(Error::new(
                ErrorKind::Invalid("the modules manifest has no root module (key \"\")".into()),
                MANIFEST,
                None,
            ));
        }
        Ok(Configuration { modules })
    }

    /// The module tree, decoded.
    fn tree(&self, client: Client) -> Result<Tree<'_>, Error> {
        let terraform = client == Client::Terraform;
        let mut by_key: BTreeMap<&str, &ModuleFiles> = BTreeMap::new();
        for m in &self.modules {
            by_key.insert(m.key.as_str(), m);
        }
        self.subtree("", "", &by_key, terraform, 0)
    }

    fn subtree<'a>(
        &'a self,
        key: &str,
        path: &str,
        by_key: &BTreeMap<&str, &'a ModuleFiles>,
        terraform: bool,
        depth: usize,
    ) -> Result<Tree<'a>, Error> {
        let Some(m) = by_key.get(key) else {
            return Err(Error::new(
                ErrorKind::Invalid(format!("the modules manifest has no module {key:?}")),
                MANIFEST,
                None,
            ));
        };
        if let Some((file, what)) = &m.unsupported {
            return Err(Error::new(
                ErrorKind::Unsupported(format!(
                    "{what} (the module would be written incompletely)"
                )),
                file.clone(),
                None,
            ));
        }
        if depth > MAX_MODULE_DEPTH {
            return Err(Error::new(
                ErrorKind::Invalid(format!(
                    "modules nested more than {MAX_MODULE_DEPTH} levels deep (module {key:?})"
                )),
                MANIFEST,
                None,
            ));
        }
        let bodies: Vec<&Body> = m.files.iter().map(|(_, b)| b).collect();
        let module = Module::decode(&bodies, terraform);
        let mut children = BTreeMap::new();
        for name in module.calls.keys() {
            let child_key = if key.is_empty() {
                name.clone()
            } else {
                format!("{key}.{name}")
            };
            if !by_key.contains_key(child_key.as_str()) {
                // The clients record every called module in the snapshot.
                return Err(Error::new(
                    ErrorKind::Invalid(format!(
                        "module call {name:?} has no module {child_key:?} in the modules manifest"
                    )),
                    m.files.first().map_or(MANIFEST, |(n, _)| n.as_str()),
                    None,
                ));
            }
            let child_path = if path.is_empty() {
                format!("module.{name}")
            } else {
                format!("{path}.module.{name}")
            };
            children.insert(
                name.clone(),
                self.subtree(&child_key, &child_path, by_key, terraform, depth + 1)?,
            );
        }
        Ok(Tree {
            path: path.to_owned(),
            file: m
                .files
                .first()
                .map_or_else(|| format!("m-{key}/"), |(n, _)| n.clone()),
            module,
            children,
        })
    }

    /// Writes the value of `show -json`'s `configuration` member: the provider
    /// configurations and the root module with its resources, outputs, variables and module
    /// calls (recursively), each argument's expression with its `constant_value` and
    /// `references`, keyed by the provider schemas in `schemas`, in `client`'s dialect.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Invalid`] for a resource whose provider schema `schemas` lacks (the
    /// client fails the same way), [`ErrorKind::Unsupported`] for a variable default this
    /// crate cannot evaluate.
    pub fn write_json(
        &self,
        w: &mut JsonWriter<&mut String>,
        schemas: &ProgramCache,
        client: Client,
    ) -> Result<(), Error> {
        let tree = self.tree(client)?;
        let node = Marshal { schemas, client }.config(&tree)?;
        node.write(w).map_err(|_| {
            Error::new(
                ErrorKind::Invalid("a number could not be written".into()),
                "tfconfig/",
                None,
            )
        })
    }

    /// Each root-module variable with a default: its name and the default's JSON text,
    /// converted to the declared type (what `show -json` adds to `variables` for the
    /// variables a plan did not set), sorted by name.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Unsupported`] for a default this crate cannot evaluate or convert.
    pub fn root_variable_defaults(&self) -> Result<Vec<(String, String)>, Error> {
        let tree = self.tree(Client::OpenTofu)?;
        let mut out = Vec::new();
        for (name, v) in &tree.module.variables {
            let Some(e) = v.default else { continue };
            let Some(val) = variable_default(e, v.ty.as_ref()) else {
                return Err(Error::new(
                    ErrorKind::Unsupported(format!("the default of variable {name:?}")),
                    tree.file.clone(),
                    None,
                ));
            };
            let mut text = String::new();
            let mut w = JsonWriter::new(&mut text, Escape::Go);
            val.write(&mut w).map_err(|_| {
                Error::new(
                    ErrorKind::Invalid("a number could not be written".into()),
                    tree.file.clone(),
                    None,
                )
            })?;
            out.push((name.clone(), text));
        }
        Ok(out)
    }
}
