//! ANSI colours of the actions and their markers, as the clients colour them in their
//! plans: what the summaries paint their action columns and markers with.

/// The ANSI colour code (SGR parameter) of an action's marker (`+`, `-`, `~`, `-/+`,
/// `+/-`, `<=`) or name (`create`, `delete`, `update`, `replace`, `read`); `None` for any
/// other text.
pub fn color_of(marker: &str) -> Option<&'static str> {
    match marker {
        "+" | "create" => Some("32"),
        "-" | "delete" => Some("31"),
        "~" | "update" => Some("33"),
        "-/+" | "+/-" | "replace" => Some("35"),
        "<=" | "read" => Some("36"),
        _ => None,
    }
}

/// `text` in the colour of `marker` (see [`color_of`]) when `color` is on; else `text` as
/// it is. `text` is written as given: escape document strings first
/// ([`escape`](crate::escape)).
pub fn paint(text: &str, marker: &str, color: bool) -> String {
    match color_of(marker) {
        Some(c) if color => format!("\x1b[{c}m{text}\x1b[0m"),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::paint;

    #[test]
    fn paints_known_markers_only_when_asked() {
        assert_eq!(paint("+", "+", true), "\x1b[32m+\x1b[0m");
        assert_eq!(paint("replace", "-/+", true), "\x1b[35mreplace\x1b[0m");
        assert_eq!(paint("+", "+", false), "+");
        assert_eq!(paint("x", "?", true), "x");
    }
}
