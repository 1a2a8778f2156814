pub use low::a;
