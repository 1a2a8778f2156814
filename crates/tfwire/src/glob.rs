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
    /// The fewest characters a matching text has (one per `?` and literal character).
    min_chars: usize,
    /// The pattern's shape, when it allows a match without the general algorithm.
    shape: Shape,
}

/// How the characters of a text are compared with the pattern's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Case {
    /// As they are.
    Exact,
    /// Each text character through [`fold`] first (the pattern was compiled from folded
    /// text).
    Fold,
}

/// One character as case-insensitive matching compares it: lowercase when its lowercase is
/// one character, else itself.
pub(crate) fn fold(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

/// The shapes most patterns have (`name`, `name*`, `*name`, `*name*`) with ASCII literal
/// characters, matched on an ASCII text byte by byte without the general algorithm.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    /// Any other pattern.
    General,
    /// No `*`: the text is the literal.
    Exact(Box<[u8]>),
    /// `literal*`.
    Prefix(Box<[u8]>),
    /// `*literal`.
    Suffix(Box<[u8]>),
    /// `*literal*` (and `*`: the empty literal).
    Contains(Box<[u8]>),
}

impl Shape {
    fn of(tokens: &[Token]) -> Shape {
        let (lead, rest) = match tokens.split_first() {
            Some((Token::Any, rest)) => (true, rest),
            _ => (false, tokens),
        };
        let (trail, middle) = match rest.split_last() {
            Some((Token::Any, middle)) => (true, middle),
            _ => (false, rest),
        };
        let mut literal = Vec::with_capacity(middle.len());
        for t in middle {
            match t {
                Token::Char(c) if c.is_ascii() => literal.push(*c as u8),
                _ => return Shape::General,
            }
        }
        let literal = literal.into_boxed_slice();
        match (lead, trail) {
            (false, false) => Shape::Exact(literal),
            (false, true) => Shape::Prefix(literal),
            (true, false) => Shape::Suffix(literal),
            (true, true) => Shape::Contains(literal),
        }
    }
}

/// Whether `text` (ASCII) equals `literal` with each text byte taken through `case`.
fn same(text: &[u8], literal: &[u8], case: Case) -> bool {
    text.len() == literal.len()
        && match case {
            Case::Exact => text == literal,
            Case::Fold => text
                .iter()
                .zip(literal)
                .all(|(t, l)| t.to_ascii_lowercase() == *l),
        }
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
        let min_chars = tokens.iter().filter(|t| **t != Token::Any).count();
        let shape = Shape::of(&tokens);
        Glob {
            tokens,
            min_chars,
            shape,
        }
    }

    /// Whether the pattern has no `*` or `?`: it matches one string only.
    pub fn is_literal(&self) -> bool {
        self.tokens.iter().all(|t| matches!(t, Token::Char(_)))
    }

    /// Whether the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        self.matches_case(text, Case::Exact)
    }

    /// Whether the whole of `text` matches, its characters compared as `case` says.
    /// Allocates nothing.
    pub(crate) fn matches_case(&self, text: &str, case: Case) -> bool {
        // A character is at least one byte: a text of fewer bytes than the pattern's
        // characters cannot match.
        if text.len() < self.min_chars {
            return false;
        }
        if !text.is_ascii() {
            return match case {
                Case::Exact => self.matches_general(text, |c| c),
                Case::Fold => self.matches_general(text, fold),
            };
        }
        let t = text.as_bytes();
        match &self.shape {
            Shape::Exact(l) => same(t, l, case),
            Shape::Prefix(l) => same(&t[..l.len()], l, case),
            Shape::Suffix(l) => same(&t[t.len() - l.len()..], l, case),
            Shape::Contains(l) => l.is_empty() || t.windows(l.len()).any(|w| same(w, l, case)),
            Shape::General => match case {
                Case::Exact => self.matches_general(text, |c| c),
                Case::Fold => self.matches_general(text, fold),
            },
        }
    }

    /// The general match, every character of `text` taken through `fold` first.
    fn matches_general(&self, text: &str, fold: impl Fn(char) -> char) -> bool {
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

    /// Every pattern and text over a small alphabet (ASCII of both cases, a non-ASCII letter
    /// with a one-character lowercase, the wildcards and the escape): the shapes' byte match
    /// answers as the general match does, in both cases.
    #[test]
    fn shapes_agree_with_the_general_match() {
        fn all(alphabet: &[char], max: usize) -> Vec<String> {
            let mut out = vec![String::new()];
            let mut last = vec![String::new()];
            for _ in 0..max {
                let next: Vec<String> = last
                    .iter()
                    .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                    .collect();
                out.extend(next.iter().cloned());
                last = next;
            }
            out
        }
        let patterns = all(&['a', 'B', '*', '?', 'É', '\\'], 4);
        let texts = all(&['a', 'A', 'b', 'B', 'é', '*'], 4);
        let mut shaped = 0;
        for p in &patterns {
            for (case, g) in [
                (Case::Exact, Glob::new(p)),
                (
                    Case::Fold,
                    Glob::new(&p.chars().map(fold).collect::<String>()),
                ),
            ] {
                shaped += usize::from(g.shape != Shape::General);
                for t in &texts {
                    let general = match case {
                        Case::Exact => g.matches_general(t, |c| c),
                        Case::Fold => g.matches_general(t, fold),
                    };
                    assert_eq!(g.matches_case(t, case), general, "{p:?} {t:?} {case:?}");
                }
            }
        }
        assert!(shaped > patterns.len() / 4, "{shaped}");
    }
}
