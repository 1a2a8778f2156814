//! Writes the seed corpora of the fuzz targets: `OUT/<target>/<name>` for every seed built
//! from the repository's `corpus/` (see `tfwire_fuzzing::seeds`).
//!
//! ```text
//! tfwire-fuzz-seeds [OUT]    (default: fuzz/seeds)
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::env::args_os()
        .nth(1)
        .map_or_else(|| root.join("fuzz/seeds"), PathBuf::from);
    match run(&root.join("corpus"), &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(corpus: &std::path::Path, out: &std::path::Path) -> std::io::Result<()> {
    let seeds = tfwire_fuzzing::seeds::build(corpus)?;
    for (target, _) in tfwire_fuzzing::TARGETS {
        let dir = out.join(target);
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir_all(&dir)?;
        let mine: Vec<_> = seeds.iter().filter(|s| s.target == *target).collect();
        for s in &mine {
            std::fs::write(dir.join(&s.name), &s.data)?;
        }
        println!("{:>5} seeds in {}", mine.len(), dir.display());
    }
    Ok(())
}
