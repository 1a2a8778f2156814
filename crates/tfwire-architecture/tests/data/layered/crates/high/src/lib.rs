//! Above low.
pub use low::Thing;
