mod b;
pub use b::thing;

pub(crate) fn shared() -> u8 {
    b::thing() + 1
}
