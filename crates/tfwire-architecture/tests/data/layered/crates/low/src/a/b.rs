//! Uses its sibling below it, through the parent's path.
use super::c::helper;

/// A thing.
pub struct Thing(pub u8);

/// Made by the helper.
pub fn make() -> Thing {
    Thing(helper(b'x', "crate::d::looks_like_a_path"))
}
