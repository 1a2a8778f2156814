//! The configuration snapshot of a plan file (`tfconfig/`): the modules manifest and each
//! module's HCL files.

use crate::error::{Error, ErrorKind};
use tfwire::schema::ProgramCache;
use tfwire_json::JsonWriter;

/// Which client's `show -json` to reproduce where the two differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Client {
    /// OpenTofu.
    OpenTofu,
    /// Terraform.
    Terraform,
}

/// Limits on a snapshot, for [`Configuration::read`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The most bytes all files may hold together. Default 64 MiB.
    pub max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bytes: 64 << 20,
        }
    }
}

/// A configuration snapshot, read.
#[derive(Debug)]
pub struct Configuration {
    files: Vec<(String, String)>,
}

impl Configuration {
    /// Reads a snapshot from its files: the members under `tfconfig/` of a plan file, named
    /// relative to it (`modules.json`, `m-/main.tf`, `m-child.leaf/x.tf`).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TooLarge`] past `limits`, [`ErrorKind::NotUtf8`] for a file that is not
    /// text.
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
        let mut out = Vec::with_capacity(files.len());
        for (name, bytes) in files {
            let text = core::str::from_utf8(bytes).map_err(|e| {
                let at = crate::lockfile::location(bytes, e.valid_up_to());
                Error::new(ErrorKind::NotUtf8, *name, Some(at))
            })?;
            out.push(((*name).to_owned(), text.to_owned()));
        }
        Ok(Configuration { files: out })
    }

    /// Writes the value of `show -json`'s `configuration` member.
    ///
    /// # Errors
    ///
    /// Not written yet: [`ErrorKind::Unsupported`].
    pub fn write_json(
        &self,
        _w: &mut JsonWriter<&mut String>,
        _schemas: &ProgramCache,
        _client: Client,
    ) -> Result<(), Error> {
        Err(self.unsupported("the `configuration` member"))
    }

    /// Each root-module variable with a default: its name and the default's JSON text,
    /// converted to the declared type (what `show -json` adds to `variables` for the
    /// variables a plan did not set).
    ///
    /// # Errors
    ///
    /// Not written yet: [`ErrorKind::Unsupported`].
    pub fn root_variable_defaults(&self) -> Result<Vec<(String, String)>, Error> {
        Err(self.unsupported("variable defaults"))
    }

    fn unsupported(&self, what: &str) -> Error {
        let file = self.files.first().map_or("tfconfig/", |(n, _)| n.as_str());
        Error::new(ErrorKind::Unsupported(what.into()), file, None)
    }
}
