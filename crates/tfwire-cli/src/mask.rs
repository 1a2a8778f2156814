//! The mask options every command that prints values takes (`--mask`, `--mask-file`,
//! `--no-default-masks`, `TFWIRE_MASK_FILE`), turned into one [`Masks`].

use crate::failure::Failure;
use tfwire::mask::Masks;
use tfwire_render::escape::Inline;

/// The environment variable naming a mask file when `--mask-file` is not given.
pub(crate) const MASK_FILE_ENV: &str = "TFWIRE_MASK_FILE";

/// The most bytes a mask file may hold (1 MiB).
pub(crate) const MAX_MASK_FILE_BYTES: u64 = 1 << 20;

/// Masks: values a provider does not mark sensitive but that are secret by convention.
///
/// A masked value is shown as a sensitive one is, in every human output and summary (`(sensitive
/// value)`, `(sensitive)` in the tap's log and `dump`'s lines); an object or list is hidden
/// whole. Masks add to the provider's and the document's markers; they never unmask. The
/// masks in force are the union of: the default list (unless --no-default-masks), the mask
/// file (--mask-file FILE, else the file TFWIRE_MASK_FILE names; one pattern a line, `#`
/// comments, at most 1 MiB), and every --mask. A pattern is a path of `.`-separated steps,
/// each a glob over an attribute, block or map key name (`*`, `?`, `\`; `**` any number of
/// steps; case ignored; list indices are not steps): `NAME` matches at any depth, `.PATH` from
/// a resource's root, `**.PATH` from anywhere, `TYPE.PATH` from the root of resources of a
/// type glob (`aws_db_instance.password`; outputs are of type `output`). At most 63 steps.
///
/// Default masks: *password*, *passwd*, *secret*, *token*, *private_key*, *api_key*,
/// **.env.value (name/value environment entries), **.environment.variables (environment
/// variable maps).
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct MaskArgs {
    /// Also hide values whose attribute path matches PATTERN, exactly as sensitive values
    /// are hidden ("(sensitive value)"; an object or list whole), in every human output,
    /// summary, `dump` line and tap log (repeatable). Steps are separated by `.`: `NAME`
    /// matches at any depth (`*password*`), `.a.b` from a resource's root, `**.env.value`
    /// from anywhere, `TYPE.PATH` for one resource type (`aws_db_instance.password`;
    /// outputs are of type `output`). `*` and `?` within a step, `**` for any steps, case
    /// ignored, list indices skipped, no brackets, at most 63 steps. Masks add to the
    /// default list, the mask file and the document's own markers; nothing unmasks.
    #[arg(long = "mask", value_name = "PATTERN")]
    mask: Vec<String>,
    /// A file of mask patterns, one a line (blank lines and lines starting with `#`
    /// skipped, at most 1 MiB), added to the defaults and --mask. When absent, the file
    /// that TFWIRE_MASK_FILE names is read (so a CI job sets its masks once); --mask-file
    /// takes its place.
    #[arg(long, value_name = "FILE")]
    mask_file: Option<String>,
    /// Do not apply the default masks: *password*, *passwd*, *secret*, *token*,
    /// *private_key*, *api_key*, **.env.value, **.environment.variables (--mask and the
    /// mask file still apply). With it and no other mask, `plan show` draws the plan
    /// exactly as `tofu show` does.
    #[arg(long)]
    no_default_masks: bool,
}

impl MaskArgs {
    /// The masks in force (see [`MaskArgs`]), reading the mask file and the environment.
    pub(crate) fn masks(&self) -> Result<Masks, Failure> {
        self.masks_with(std::env::var_os(MASK_FILE_ENV))
    }

    /// As [`MaskArgs::masks`], with the environment variable's value given.
    fn masks_with(&self, env: Option<std::ffi::OsString>) -> Result<Masks, Failure> {
        let mut masks = if self.no_default_masks {
            Masks::new()
        } else {
            Masks::defaults()
        };
        let (file, origin) = match (&self.mask_file, env.filter(|v| !v.is_empty())) {
            (Some(f), _) => (Some(std::path::PathBuf::from(f)), "--mask-file"),
            (None, Some(v)) => (Some(std::path::PathBuf::from(v)), MASK_FILE_ENV),
            (None, None) => (None, ""),
        };
        if let Some(path) = file {
            let shown = path.display().to_string();
            let cannot = |e: String| Failure::Usage(format!("{origin} {}: {e}", Inline(&shown)));
            let len = std::fs::metadata(&path)
                .map_err(|e| cannot(e.to_string()))?
                .len();
            if len > MAX_MASK_FILE_BYTES {
                return Err(cannot(format!(
                    "a mask file holds at most {MAX_MASK_FILE_BYTES} bytes, this one {len}"
                )));
            }
            let bytes = std::fs::read(&path).map_err(|e| cannot(e.to_string()))?;
            let text = String::from_utf8(bytes).map_err(|e| {
                cannot(format!(
                    "not UTF-8 (at byte {})",
                    e.utf8_error().valid_up_to()
                ))
            })?;
            masks.add_lines(&text).map_err(|(line, e)| {
                Failure::Usage(format!("{origin} {}:{line}: {e}", Inline(&shown)))
            })?;
        }
        for p in &self.mask {
            masks
                .add(p)
                .map_err(|e| Failure::Usage(format!("--mask: {e}")))?;
        }
        Ok(masks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(r: Result<Masks, Failure>) -> Masks {
        match r {
            Ok(m) => m,
            Err(Failure::Usage(m) | Failure::Input(m)) => panic!("{m}"),
            Err(Failure::Exit(..)) => panic!("an exit"),
        }
    }

    fn failure(r: Result<Masks, Failure>) -> String {
        match r {
            Err(Failure::Usage(m)) => m,
            _ => panic!("expected a usage error"),
        }
    }

    #[test]
    fn sources_and_precedence() {
        let dir = std::env::temp_dir().join(format!("tfwire-mask-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a");
        let b = dir.join("b");
        std::fs::write(&a, "# ci\n  pin_code \n").unwrap();
        std::fs::write(&b, "ok\nx[0]\n").unwrap();
        let args = MaskArgs {
            mask: vec!["extra".into()],
            mask_file: None,
            no_default_masks: true,
        };
        let m = ok(args.masks_with(Some(a.clone().into_os_string())));
        assert_eq!(m.patterns(), ["pin_code", "extra"]);
        // --mask-file wins over the environment.
        let args = MaskArgs {
            mask_file: Some(b.display().to_string()),
            ..args
        };
        let e = failure(args.masks_with(Some(a.clone().into_os_string())));
        assert!(e.starts_with("--mask-file "), "{e}");
        assert!(
            e.contains(":2: mask pattern \"x[0]\": brackets are not allowed"),
            "{e}"
        );
        let defaults = ok(MaskArgs::default().masks_with(None));
        assert_eq!(defaults.patterns().len(), tfwire::mask::DEFAULT_MASKS.len());
        let missing = dir.join("missing");
        let e = failure(MaskArgs::default().masks_with(Some(missing.into_os_string())));
        assert!(e.starts_with("TFWIRE_MASK_FILE "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
