//! The architecture of the tfwire workspace, checked by reading its tree as text.
//!
//! - Every member crate's module graph is acyclic ([`module_cycles`]; the graph's rule is in
//!   [`modules`]).
//! - The crates are layered as the README's layout table says: each crate depends (outside
//!   `[dev-dependencies]`) only on crates of lower layers; tools on anything, nothing on a tool
//!   ([`layering`]).
//! - No crate declares a dependency its code never names ([`unused_dependencies`]).
//! - The CLI stays a thin shell ([`cli_size`]) and only `tfwire-json` parses JSON with
//!   simd-json ([`simd_json_owner`]).
//! - No comment tells the project's history ([`history_comments`]).
//!
//! The tests in `tests/` run each check on the workspace and on small trees in `tests/data/`.
//!
//! ```
//! let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/layered");
//! let ws = tfwire_architecture::Workspace::read(&root).unwrap();
//! assert!(tfwire_architecture::module_cycles(&ws).is_empty());
//! ```

#![forbid(unsafe_code)]

pub mod checks;
pub mod history;
pub mod lex;
pub mod manifest;
pub mod modules;
pub mod workspace;

pub use checks::{
    CLI_MAX_LINES, cli_size, layering, lines_outside_tests, module_cycles, simd_json_owner,
    source_size, unused_dependencies,
};
pub use history::history_comments;
pub use workspace::{Layer, Workspace};
