//! Where a request differs from a recorded one: the first difference and how many.

/// The differences between a recorded request and a new one: the first (path, expected,
/// found) and how many were seen (up to a limit).
#[derive(Debug, Default)]
pub(crate) struct Diff {
    pub(crate) first: Option<(String, String, String)>,
    pub(crate) count: usize,
    limit: usize,
}

impl Diff {
    pub(crate) fn counting(limit: usize) -> Diff {
        Diff {
            first: None,
            count: 0,
            limit,
        }
    }

    pub(crate) fn full(&self) -> bool {
        self.count >= self.limit
    }

    pub(crate) fn add(
        &mut self,
        path: &str,
        expected: impl FnOnce() -> String,
        found: impl FnOnce() -> String,
    ) {
        // The first difference, or the first in the configuration: what a person edits.
        let config = |p: &str| p.starts_with("config");
        if self
            .first
            .as_ref()
            .is_none_or(|(p, _, _)| !config(p) && config(path))
        {
            self.first = Some((path.to_owned(), expected(), found()));
        }
        self.count += 1;
    }
}
