//! `tfwire export` and `tfwire query`: handed over to the `tfwire-fleet` binary, which
//! holds DataFusion (the `tfwire` binary does not). It is looked for beside the running
//! `tfwire`, then on `PATH`, and run in place of this process (`exec`: no child is left
//! behind, its exit code is the command's).

use crate::failure::Failure;
use std::ffi::OsString;
use std::path::PathBuf;

/// The arguments, passed on unchanged (`tfwire-fleet query --help` lists them).
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub(crate) struct Args {
    /// The arguments of `tfwire-fleet export` or `tfwire-fleet query`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<OsString>,
}

/// The binary's file name.
const FLEET: &str = "tfwire-fleet";

/// Runs `tfwire-fleet COMMAND ARGS...` in place of this process.
pub(crate) fn run(command: &str, args: Args) -> Result<(), Failure> {
    let Some(bin) = find() else {
        return Err(Failure::Usage(format!(
            "`tfwire {command}` runs the {FLEET} binary (SQL and Parquet, built on DataFusion), \
             found neither beside tfwire nor on PATH; install it with `cargo install {FLEET}` \
             (or `cargo build --release -p {FLEET}` in tfwire's repository) and run again"
        )));
    };
    let mut child = std::process::Command::new(&bin);
    child.arg(command).args(&args.args);
    exec(child, &bin)
}

#[cfg(unix)]
fn exec(mut child: std::process::Command, bin: &std::path::Path) -> Result<(), Failure> {
    use std::os::unix::process::CommandExt as _;
    let e = child.exec();
    Err(Failure::Input(format!("cannot run {}: {e}", bin.display())))
}

#[cfg(not(unix))]
fn exec(mut child: std::process::Command, bin: &std::path::Path) -> Result<(), Failure> {
    let status = child
        .status()
        .map_err(|e| Failure::Input(format!("cannot run {}: {e}", bin.display())))?;
    match status.code() {
        Some(0) => Ok(()),
        code => Err(Failure::Exit(
            code.and_then(|c| u8::try_from(c).ok()).unwrap_or(1),
            None,
        )),
    }
}

/// `tfwire-fleet` beside the running executable, else the first on `PATH`.
fn find() -> Option<PathBuf> {
    let name = format!("{FLEET}{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(&name)))
        .filter(|p| p.is_file());
    beside.or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|d| d.join(&name))
            .find(|p| p.is_file())
    })
}
