//! A temporary directory removed on drop, named after the crate whose tests use it (this
//! file is also included by `tfwire-fleet`'s tests).

use std::path::PathBuf;

/// A temporary directory removed on drop.
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    /// A fresh, empty directory: `name` (the test's), the process id and a counter keep
    /// tests running in parallel apart.
    pub(crate) fn new(name: &str) -> TempDir {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let crate_name = env!("CARGO_PKG_NAME");
        let dir =
            std::env::temp_dir().join(format!("{crate_name}-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
