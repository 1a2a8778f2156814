//! The modules manifest of a snapshot (`modules.json`): which modules it holds.

use crate::error::{Error, ErrorKind};
use tfwire_json::tape::{INPUT_PADDING, TapeParser};

const FILE: &str = "modules.json";

/// The keys of the modules the manifest lists (`""` for the root, `a.b` for module `b` called by
/// module `a`): an array of `{"Key", "Source", "Dir"}`, or an object holding it as `Modules`.
pub(crate) fn module_keys(bytes: &[u8], max_modules: usize) -> Result<Vec<String>, Error> {
    let invalid = |msg: String, offset: Option<usize>| {
        Error::new(
            ErrorKind::Invalid(msg),
            FILE,
            offset.map(|o| crate::lockfile::location(bytes, o)),
        )
    };
    let shape = tfwire_json::json_shape(bytes, 64, usize::MAX)
        .map_err(|e| invalid(format!("not JSON: {e}"), None))?;
    let mut buf = bytes.to_vec();
    buf.resize(bytes.len() + INPUT_PADDING, b' ');
    let mut parser = TapeParser::default();
    let doc = parser
        .parse_document(&mut buf, bytes.len(), &shape)
        .map_err(|e| invalid(format!("not JSON: {e}"), None))?;
    let root = doc.root();
    // The plan file's snapshot holds the array; `.terraform/modules/modules.json` wraps it
    // in an object.
    let modules = root.get("Modules").unwrap_or(root);
    let arr = modules
        .expect_array()
        .map_err(|e| invalid(e.to_string(), modules.offset()))?;
    if arr.len() > max_modules {
        return Err(invalid(
            format!(
                "{} modules, more than the limit of {max_modules}",
                arr.len()
            ),
            modules.offset(),
        ));
    }
    let mut keys = Vec::with_capacity(arr.len());
    for m in arr.iter() {
        let key = m
            .get("Key")
            .ok_or_else(|| invalid("a module without a \"Key\"".into(), m.offset()))?;
        let key = key
            .expect_str()
            .map_err(|e| invalid(e.to_string(), key.offset()))?;
        keys.push(key.to_owned());
    }
    Ok(keys)
}
