//! Masks: attribute paths whose values are hidden as if they were sensitive, for the values
//! a provider does not mark (an environment variable's `value`, a `*_password` attribute a
//! provider forgot to mark).
//!
//! A [`Masks`] is a list of path patterns. Each reader of values decides sensitivity in one
//! place and asks the masks there, so a masked value is hidden wherever a sensitive one is.
//! Reading is a walk: [`Masks::start`] at the root of a resource's value, [`Masks::step`]
//! into each attribute, block or map key (list, set and tuple elements are not steps), and
//! [`Cursor::is_masked`] says whether the value there (and everything in it) is hidden.
//!
//! # Patterns
//!
//! A pattern is a path of steps separated by `.`; each step is a [`Glob`] over one
//! attribute name, nested block type or map key (`*` any run of characters, `?` one
//! character, `\` makes the next character literal, `\.` a dot inside a step). A step that
//! is exactly `**` matches any number of steps, none included. Matching ignores case
//! (`*password*` matches `DB_PASSWORD`; a character whose lowercase is one character is
//! compared lowercase) and allocates nothing for up to 16 patterns. The pattern matches a value's path as
//! [`crate::path`] prints it without its indices: `.spec[0].container[1].env[2].value`
//! is matched as `spec.container.env.value`, and `.tags["db_password"]` as
//! `tags.db_password`.
//!
//! - `NAME` (no `.`): that name at any depth, in any resource: `*password*` is
//!   `**.*password*`.
//! - `.PATH`: a path from the root of any resource's value: `.password` matches a
//!   top-level `password` only.
//! - `**.PATH`: a path that may start at any depth: `**.env.value`.
//! - `TYPE.PATH`: a path from the root of the values of resources (and data sources) whose
//!   type matches the glob `TYPE`: `aws_db_instance.password`, `kubernetes_*.**.env.value`.
//!   Output values are of type `output` and their first step is the output's name:
//!   `output.db_*`.
//!
//! A pattern that matches a node masks everything in it (an object, a list, a map).
//! Brackets are refused (an index is not a step; a map key is one: write `tags.env`).
//! A pattern has at most [`MAX_PATTERN_STEPS`] steps.
//!
//! ```
//! use tfwire::mask::Masks;
//! let mut masks = Masks::new();
//! masks.add("*password*")?;
//! masks.add("aws_db_instance.master_username")?;
//! masks.add("**.env.value")?;
//!
//! let at = |ty: &str, path: &[&str]| {
//!     let mut c = masks.start(ty);
//!     for s in path { c = masks.step(&c, s); }
//!     c.is_masked()
//! };
//! assert!(at("aws_instance", &["user_data", "DB_PASSWORD"]));
//! assert!(at("aws_db_instance", &["master_username"]));
//! assert!(!at("aws_rds_cluster", &["master_username"]));
//! assert!(at("kubernetes_pod", &["spec", "container", "env", "value"]));
//! assert!(!at("kubernetes_pod", &["spec", "container", "env", "name"]));
//! // Everything below a masked node is masked.
//! assert!(at("x", &["password", "inner"]));
//! assert!(masks.add("tags[\"x\"]").is_err());
//! # Ok::<(), tfwire::mask::PatternError>(())
//! ```

use crate::glob::{Case, Glob, fold};
use core::fmt;
use smallvec::SmallVec;

/// `s` with every character folded (see [`fold`]), for compiling a pattern.
fn folded(s: &str) -> String {
    s.chars().map(fold).collect()
}

/// How many patterns a cursor holds without allocating.
const INLINE: usize = 16;

/// The per-pattern states of a cursor: inline up to [`INLINE`] patterns (no allocation).
type States = SmallVec<[u64; INLINE]>;

/// The default masks, each with why it is there. False positives only hide a value; false
/// negatives leak one: the list names what is a secret by convention in every provider.
pub const DEFAULT_MASKS: &[(&str, &str)] = &[
    (
        "*password*",
        "passwords and password hashes (master_password, admin_password, db_password)",
    ),
    (
        "*passwd*",
        "the short spelling of password (root_passwd, htpasswd)",
    ),
    (
        "*secret*",
        "client secrets, secret keys and strings (client_secret, secret_access_key)",
    ),
    (
        "*token*",
        "API, access, bearer and refresh tokens (auth_token, token)",
    ),
    (
        "*private_key*",
        "PEM private keys and their variants (private_key_pem, ssh_private_key)",
    ),
    ("*api_key*", "API keys (api_key, datadog_api_key)"),
    (
        "**.env.value",
        "container environment variables as name/value pairs (Kubernetes env blocks)",
    ),
    (
        "**.environment.variables",
        "environment variable maps (Lambda and similar environment blocks)",
    ),
];

/// The most steps a pattern may have (63: one bit per step of a 64-bit match state).
pub const MAX_PATTERN_STEPS: usize = 63;

/// A pattern [`Masks::add`] refuses, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pattern: String,
    reason: &'static str,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mask pattern ")?;
        let mut quoted = String::new();
        let _ = tfwire_json::write_safe_str(&mut quoted, &self.pattern);
        write!(f, "{quoted}: {}", self.reason)
    }
}

impl std::error::Error for PatternError {}

#[derive(Clone, Debug)]
enum Step {
    /// `**`: any number of steps.
    Any,
    /// One step whose lowercase name matches.
    Name(Glob),
}

#[derive(Clone, Debug)]
struct Rule {
    /// The resource type (lowercase glob); `None`: any.
    type_glob: Option<Glob>,
    steps: Vec<Step>,
    /// Bit `i` set when step `i` is `**`.
    any: u64,
}

impl Rule {
    fn new(type_glob: Option<Glob>, steps: Vec<Step>) -> Rule {
        let any = steps
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, Step::Any))
            .fold(0, |a, (i, _)| a | 1 << i);
        Rule {
            type_glob,
            steps,
            any,
        }
    }

    /// The state with `bits` set, every `**` also matching no step.
    fn close(&self, mut bits: u64) -> u64 {
        // A step is at most bit 62 (63 steps), so the shift never loses a bit.
        loop {
            let next = bits | (bits & self.any) << 1;
            if next == bits {
                return bits;
            }
            bits = next;
        }
    }

    /// The state after a step named `name` (folded when compared) from state `bits`.
    fn step(&self, bits: u64, name: &str) -> u64 {
        let mut next = 0u64;
        let mut rest = bits;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            match self.steps.get(i) {
                Some(Step::Any) => next |= 1 << i,
                Some(Step::Name(g)) if g.matches_case(name, Case::Fold) => next |= 1 << (i + 1),
                _ => {}
            }
        }
        self.close(next)
    }

    fn done(&self, bits: u64) -> bool {
        bits & (1 << self.steps.len()) != 0
    }
}

/// A list of mask patterns (see the [module documentation](self)).
#[derive(Clone, Debug, Default)]
pub struct Masks {
    rules: Vec<Rule>,
    patterns: Vec<String>,
}

/// Where a walk is in a value: which steps of each pattern it has matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    states: States,
    masked: bool,
}

impl Cursor {
    /// Whether the value here (and everything in it) is masked.
    pub fn is_masked(&self) -> bool {
        self.masked
    }

    /// Whether nothing at or below here can be masked (no pattern is partly matched): a
    /// walk may stop.
    pub fn is_dead(&self) -> bool {
        !self.masked && self.states.iter().all(|s| *s == 0)
    }
}

impl Masks {
    /// No masks.
    pub fn new() -> Masks {
        Masks::default()
    }

    /// The [`DEFAULT_MASKS`].
    pub fn defaults() -> Masks {
        let mut m = Masks::new();
        for (p, _) in DEFAULT_MASKS {
            // The defaults are valid patterns (a unit test checks each).
            let _ = m.add(p);
        }
        m
    }

    /// Whether there are no masks.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The patterns, as given.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// Adds a pattern.
    ///
    /// # Errors
    ///
    /// An empty pattern or step (`a..b`, `.`), a bracket, or more than
    /// [`MAX_PATTERN_STEPS`] steps.
    pub fn add(&mut self, pattern: &str) -> Result<(), PatternError> {
        let err = |reason| PatternError {
            pattern: pattern.to_string(),
            reason,
        };
        if pattern.is_empty() {
            return Err(err("a pattern may not be empty"));
        }
        let mut parts = split_steps(pattern).ok_or_else(|| {
            err(
                "brackets are not allowed: list indices are not steps and a map key is one \
                 (write tags.env, not tags[\"env\"])",
            )
        })?;
        let type_glob = if parts.len() == 1 {
            parts.insert(0, "**".to_string());
            None
        } else if parts[0].is_empty() {
            parts.remove(0);
            None
        } else if parts[0] == "**" {
            None
        } else {
            Some(Glob::new(&folded(&parts.remove(0))))
        };
        if parts.iter().any(|p| p.is_empty()) {
            return Err(err(
                "a step may not be empty (two dots in a row, or a dot at the end)",
            ));
        }
        if parts.len() > MAX_PATTERN_STEPS {
            return Err(err("a pattern has at most 63 steps"));
        }
        let steps = parts
            .iter()
            .map(|p| match p.as_str() {
                "**" => Step::Any,
                p => Step::Name(Glob::new(&folded(p))),
            })
            .collect();
        self.rules.push(Rule::new(type_glob, steps));
        self.patterns.push(pattern.to_string());
        Ok(())
    }

    /// Adds the patterns of a mask file's text: one pattern a line, surrounding blanks
    /// trimmed; empty lines and lines whose first other character is `#` are skipped.
    ///
    /// # Errors
    ///
    /// The 1-based line number and the error of the first pattern refused.
    ///
    /// ```
    /// let mut masks = tfwire::mask::Masks::new();
    /// masks.add_lines("# CI masks\n  *pin*  \n\naws_db_instance.username\n").unwrap();
    /// assert_eq!(masks.patterns(), ["*pin*", "aws_db_instance.username"]);
    /// assert_eq!(masks.add_lines("ok\na..b\n").unwrap_err().0, 2);
    /// ```
    pub fn add_lines(&mut self, text: &str) -> Result<(), (usize, PatternError)> {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            self.add(line).map_err(|e| (i + 1, e))?;
        }
        Ok(())
    }

    /// The cursor at the root of a value of a resource (or data source) of type
    /// `type_name` (`output` for an output's value: step into its name first).
    /// It allocates nothing for up to 16 patterns.
    pub fn start(&self, type_name: &str) -> Cursor {
        let states: States = self
            .rules
            .iter()
            .map(|r| match &r.type_glob {
                Some(g) if !g.matches_case(type_name, Case::Fold) => 0,
                _ => r.close(1),
            })
            .collect();
        self.cursor(states)
    }

    /// The cursor one step down `at`: into an attribute, a nested block or a map key
    /// named `name`. (List, set and tuple elements are not steps: keep the cursor.) It
    /// allocates nothing for up to 16 patterns.
    pub fn step(&self, at: &Cursor, name: &str) -> Cursor {
        if at.masked {
            return at.clone();
        }
        if at.is_dead() {
            return at.clone();
        }
        let states = match self.rules.len() {
            // The common case, without an iterator's bookkeeping per pattern.
            n if n <= INLINE => {
                let mut buf = [0u64; INLINE];
                for ((b, r), &bits) in buf.iter_mut().zip(&self.rules).zip(&at.states) {
                    *b = r.step(bits, name);
                }
                States::from_buf_and_len(buf, n)
            }
            _ => self
                .rules
                .iter()
                .zip(&at.states)
                .map(|(r, &bits)| r.step(bits, name))
                .collect(),
        };
        self.cursor(states)
    }

    fn cursor(&self, states: States) -> Cursor {
        let masked = self.rules.iter().zip(&states).any(|(r, &b)| r.done(b));
        Cursor { states, masked }
    }
}

/// Splits a pattern at its unescaped dots, keeping escapes in the steps (the glob reads
/// them) except `\.`, which becomes a literal dot. `None` for an unescaped bracket.
fn split_steps(pattern: &str) -> Option<Vec<String>> {
    let mut parts = vec![String::new()];
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        let cur = parts.last_mut()?;
        match c {
            '\\' => match chars.next() {
                Some('.') => cur.push('.'),
                Some(n) => {
                    cur.push('\\');
                    cur.push(n);
                }
                None => cur.push('\\'),
            },
            '.' => parts.push(String::new()),
            '[' | ']' => return None,
            c => cur.push(c),
        }
    }
    Some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(m: &Masks, ty: &str, path: &[&str]) -> bool {
        let mut c = m.start(ty);
        for s in path {
            c = m.step(&c, s);
        }
        c.is_masked()
    }

    #[test]
    fn defaults_are_valid() {
        for (p, why) in DEFAULT_MASKS {
            assert!(Masks::new().add(p).is_ok(), "{p}");
            assert!(!why.is_empty());
        }
        assert_eq!(Masks::defaults().patterns().len(), DEFAULT_MASKS.len());
    }

    #[test]
    fn defaults_match() {
        let m = Masks::defaults();
        for (ty, path, want) in [
            ("aws_db_instance", &["password"][..], true),
            ("aws_db_instance", &["master_user_password"][..], true),
            ("x", &["Client_Secret"][..], true),
            ("x", &["tags", "API_TOKEN"][..], true),
            ("tls_private_key", &["private_key_pem"][..], true),
            (
                "kubernetes_pod",
                &["spec", "container", "env", "value"][..],
                true,
            ),
            (
                "kubernetes_pod",
                &["spec", "container", "env", "name"][..],
                false,
            ),
            (
                "aws_lambda_function",
                &["environment", "variables", "A"][..],
                true,
            ),
            ("aws_instance", &["ami"][..], false),
            ("aws_instance", &["tags", "env"][..], false),
            ("output", &["db_password"][..], true),
        ] {
            assert_eq!(masked(&m, ty, path), want, "{ty} {path:?}");
        }
    }

    #[test]
    fn pattern_forms() {
        let mut m = Masks::new();
        m.add(".top").unwrap();
        m.add("aws_*.a.**.z").unwrap();
        m.add(r"k\.v").unwrap();
        assert!(masked(&m, "t", &["top"]));
        assert!(!masked(&m, "t", &["x", "top"]));
        assert!(masked(&m, "aws_x", &["a", "z"]));
        assert!(masked(&m, "AWS_X", &["A", "b", "c", "Z"]));
        assert!(!masked(&m, "google_x", &["a", "z"]));
        assert!(masked(&m, "t", &["deep", "k.v"]));
        assert!(!masked(&m, "t", &["k", "v"]));
        assert!(Masks::new().start("t").is_dead());
    }

    #[test]
    fn refused() {
        for (p, reason) in [
            ("", "a pattern may not be empty"),
            (
                "a..b",
                "a step may not be empty (two dots in a row, or a dot at the end)",
            ),
            (
                ".",
                "a step may not be empty (two dots in a row, or a dot at the end)",
            ),
            (
                "a.",
                "a step may not be empty (two dots in a row, or a dot at the end)",
            ),
        ] {
            assert_eq!(
                Masks::new().add(p).unwrap_err().to_string(),
                format!("mask pattern {}: {reason}", tfwire_json::Safe(p)),
            );
        }
        let long = vec!["a"; 64].join(".");
        assert!(Masks::new().add(&format!(".{long}")).is_err());
        let ok = vec!["a"; 63].join(".");
        assert!(Masks::new().add(&format!(".{ok}")).is_ok());
        assert_eq!(
            Masks::new().add("x[0]").unwrap_err().to_string(),
            "mask pattern \"x[0]\": brackets are not allowed: list indices are not steps and \
             a map key is one (write tags.env, not tags[\"env\"])"
        );
    }
}
