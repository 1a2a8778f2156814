//! [`Glob`]: the shell-style pattern the workspace matches names and addresses with
//! (`tfwire-plan`'s filters, [`crate::mask`]'s rules).

/// A shell-style pattern: `*` matches any run of characters (dots and brackets included),
/// `?` any one character, `\` makes the next character literal; everything else matches
/// itself.
///
/// Brackets are literal, unlike in a shell: resource addresses are full of them
/// (`aws_instance.web[0]`, `module.a["x"]`), so `aws_instance.web[*]` means "every
/// instance of `aws_instance.web`" rather than a character class.
///
/// ```
/// use tfwire::glob::Glob;
/// let g = Glob::new("module.*.aws_instance.web[*]");
/// assert!(g.matches(r#"module.app["eu"].aws_instance.web[0]"#));
/// assert!(!g.matches("aws_instance.web[0]"));
/// assert!(Glob::new("aws_?3_*").matches("aws_s3_bucket"));
/// assert!(Glob::new(r"a\*").matches("a*") && !Glob::new(r"a\*").matches("ab"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    tokens: Vec<Token>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Char(char),
    One,
    Any,
}

impl Glob {
    /// Compiles a pattern. Every string is a valid pattern (a trailing `\` is literal).
    pub fn new(pattern: &str) -> Glob {
        let mut tokens = Vec::with_capacity(pattern.len());
        let mut chars = pattern.chars();
        while let Some(c) = chars.next() {
            tokens.push(match c {
                '*' if tokens.last() == Some(&Token::Any) => continue,
                '*' => Token::Any,
                '?' => Token::One,
                '\\' => Token::Char(chars.next().unwrap_or('\\')),
                c => Token::Char(c),
            });
        }
        Glob { tokens }
    }

    /// Whether the pattern has no `*` or `?`: it matches one string only.
    pub fn is_literal(&self) -> bool {
        self.tokens.iter().all(|t| matches!(t, Token::Char(_)))
    }

    /// Whether the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        self.matches_with(text, |c| c)
    }

    /// Whether the whole of `text` matches with every character of `text` taken through
    /// `fold` first (a pattern compiled from folded text then matches regardless of what
    /// the fold removes, such as case). Allocates nothing. Inlined: the masks' walk calls
    /// it for every name it steps into, and whether the compiler inlined it on its own
    /// changed with unrelated code in the crate (one call of the tap's per-frame work took
    /// 1.5 times the instructions when it did not).
    #[inline]
    pub(crate) fn matches_with(&self, text: &str, fold: impl Fn(char) -> char) -> bool {
        // The classic two-pointer match: on a mismatch, go back to the last `*` and let it
        // take one more character. Linear in practice, O(n·m) at worst; no recursion.
        // Positions in `text` are byte offsets of character starts.
        let next = |t: usize| {
            text[t..]
                .chars()
                .next()
                .map(|c| (fold(c), t + c.len_utf8()))
        };
        let (mut p, mut t) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while let Some((c, after)) = next(t) {
            match self.tokens.get(p) {
                Some(Token::Any) => {
                    star = Some((p, t));
                    p += 1;
                }
                Some(Token::One) => {
                    p += 1;
                    t = after;
                }
                Some(Token::Char(k)) if *k == c => {
                    p += 1;
                    t = after;
                }
                _ => match star {
                    Some((sp, st)) => {
                        let st = next(st).map_or(text.len(), |(_, a)| a);
                        p = sp + 1;
                        t = st;
                        star = Some((sp, st));
                    }
                    None => return false,
                },
            }
        }
        self.tokens[p..].iter().all(|t| *t == Token::Any)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        for (pattern, text, want) in [
            ("*", "", true),
            ("*", "anything.at[0]", true),
            ("", "", true),
            ("", "a", false),
            ("a*b*c", "aXbYc", true),
            ("a*b*c", "aXbY", false),
            ("*.web", "aws_instance.web", true),
            ("*.web", "aws_instance.web[0]", false),
            ("aws_instance.web[?]", "aws_instance.web[0]", true),
            ("aws_instance.web[?]", "aws_instance.web[10]", false),
            ("aws_instance.web[*]", "aws_instance.web[10]", true),
            (r#"*["eu"]*"#, r#"module.a["eu"].x.y"#, true),
            ("é?", "éü", true),
            ("**a", "ba", true),
            (r"\?", "?", true),
            (r"\?", "x", false),
            ("a\\", "a\\", true),
            ("*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false),
        ] {
            assert_eq!(
                Glob::new(pattern).matches(text),
                want,
                "{pattern:?} {text:?}"
            );
        }
        assert!(Glob::new("a.b[0]").is_literal() && !Glob::new("a*").is_literal());
    }
}
