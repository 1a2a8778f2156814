//! How a command fails: the exit code it asks for and the message for standard error.

/// How a command failed.
pub(crate) enum Failure {
    /// The input was rejected (exit 1).
    Input(String),
    /// The command line was wrong (exit 2).
    Usage(String),
    /// The command did its work and asks for this exit code (`--detailed-exitcode`,
    /// `--fail-on`), with a message for standard error if any.
    Exit(u8, Option<String>),
}
