//! The bottom: names only other crates. A comment naming crate::d is no edge.
/* Nor is a block comment: super::b::make */
pub(crate) fn helper(c: u8, _s: &str) -> u8 {
    memchr::memchr(c, b"x").map_or(0, |_| c)
}

pub(crate) struct Other;

#[cfg(test)]
mod tests {
    // Test code may use anything: not an edge.
    use crate::d::top;

    #[test]
    fn t() {
        let _ = top();
    }
}
