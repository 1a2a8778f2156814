//! Uses the facade (an edge to `a`, whose re-exports are not edges) and the modules below it.
use crate::a::{Thing, Other as _};
use crate::a::{self, c::helper};

/// The top.
pub fn top() -> Thing {
    let _lifetime: &'static str = "'";
    let _c = '{';
    let _ = helper(b'"', r#"" crate::a "#);
    crate::a::b::make();
    a::Thing(1)
}
