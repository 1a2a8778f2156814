//! The root declares and re-exports: not a node.
pub mod a;
pub mod d;
pub use a::Thing;
